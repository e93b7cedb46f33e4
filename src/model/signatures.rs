//! The signatures of Puppet's own functions: how many arguments each of
//! their dispatches takes, and whether it takes a lambda. Read from the
//! dispatches of Puppet 7.23's functions (`lib/puppet/functions`) and the
//! arities of its older ones (`lib/puppet/parser/functions`); a function
//! with dispatches mplint cannot read is not listed.

/// Whether a dispatch takes a lambda.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LambdaArg {
    No,
    Optional,
    Required,
}

/// One dispatch: least and most arguments (`None`: no limit), and the lambda.
pub type Dispatch = (u8, Option<u8>, LambdaArg);

/// The dispatches of a function of Puppet's, by name.
pub fn dispatches(name: &str) -> Option<&'static [Dispatch]> {
    SIGNATURES.binary_search_by(|(n, _)| n.cmp(&name)).ok().map(|i| SIGNATURES[i].1)
}

/// Sorted by name.
const SIGNATURES: &[(&str, &[Dispatch])] = &[
    ("abs", &[(1, Some(1), LambdaArg::No)]),
    ("alert", &[(0, None, LambdaArg::No)]),
    ("all", &[(1, Some(1), LambdaArg::Required)]),
    ("annotate", &[(2, Some(2), LambdaArg::Optional), (3, Some(3), LambdaArg::No)]),
    ("any", &[(1, Some(1), LambdaArg::Required)]),
    ("assert_type", &[(2, Some(2), LambdaArg::Optional)]),
    ("binary_file", &[(1, Some(1), LambdaArg::No)]),
    ("break", &[(0, Some(0), LambdaArg::No)]),
    ("call", &[(1, None, LambdaArg::Optional), (1, Some(1), LambdaArg::No)]),
    ("camelcase", &[(1, Some(1), LambdaArg::No)]),
    ("capitalize", &[(1, Some(1), LambdaArg::No)]),
    ("ceiling", &[(1, Some(1), LambdaArg::No)]),
    ("chomp", &[(1, Some(1), LambdaArg::No)]),
    ("chop", &[(1, Some(1), LambdaArg::No)]),
    ("compare", &[(2, None, LambdaArg::No), (2, Some(2), LambdaArg::No), (2, Some(3), LambdaArg::No)]),
    ("contain", &[(1, None, LambdaArg::No)]),
    ("convert_to", &[(2, None, LambdaArg::Optional)]),
    ("create_resources", &[(2, None, LambdaArg::No)]),
    ("crit", &[(0, None, LambdaArg::No)]),
    ("debug", &[(0, None, LambdaArg::No)]),
    ("defined", &[(1, None, LambdaArg::No)]),
    ("dig", &[(1, None, LambdaArg::No)]),
    ("digest", &[(1, Some(1), LambdaArg::No)]),
    ("downcase", &[(1, Some(1), LambdaArg::No)]),
    ("each", &[(1, Some(1), LambdaArg::Required)]),
    ("emerg", &[(0, None, LambdaArg::No)]),
    ("empty", &[(1, Some(1), LambdaArg::No)]),
    ("epp", &[(1, Some(2), LambdaArg::No)]),
    ("err", &[(0, None, LambdaArg::No)]),
    ("eyaml_lookup_key", &[(3, Some(3), LambdaArg::No)]),
    ("fail", &[(0, None, LambdaArg::No)]),
    ("file", &[(1, None, LambdaArg::No)]),
    ("filter", &[(1, Some(1), LambdaArg::Required)]),
    ("find_file", &[(0, None, LambdaArg::No)]),
    ("find_template", &[(0, None, LambdaArg::No)]),
    ("flatten", &[(0, None, LambdaArg::No)]),
    ("floor", &[(1, Some(1), LambdaArg::No)]),
    ("fqdn_rand", &[(1, None, LambdaArg::No)]),
    ("generate", &[(1, None, LambdaArg::No)]),
    ("get", &[(2, Some(3), LambdaArg::Optional)]),
    ("getvar", &[(1, Some(2), LambdaArg::Optional)]),
    ("group_by", &[(1, Some(1), LambdaArg::Required)]),
    ("hiera", &[(1, None, LambdaArg::No)]),
    ("hiera_array", &[(1, None, LambdaArg::No)]),
    ("hiera_hash", &[(1, None, LambdaArg::No)]),
    ("hiera_include", &[(1, None, LambdaArg::No)]),
    ("hocon_data", &[(2, Some(2), LambdaArg::No)]),
    ("include", &[(1, None, LambdaArg::No)]),
    ("index", &[(1, Some(1), LambdaArg::Required), (2, Some(2), LambdaArg::No)]),
    ("info", &[(0, None, LambdaArg::No)]),
    ("inline_epp", &[(1, Some(2), LambdaArg::No)]),
    ("inline_template", &[(1, None, LambdaArg::No)]),
    ("join", &[(1, Some(2), LambdaArg::No)]),
    ("json_data", &[(2, Some(2), LambdaArg::No)]),
    ("keys", &[(1, Some(1), LambdaArg::No)]),
    ("length", &[(1, Some(1), LambdaArg::No)]),
    ("lest", &[(1, Some(1), LambdaArg::Required)]),
    (
        "lookup",
        &[
            (1, Some(1), LambdaArg::Optional),
            (1, Some(3), LambdaArg::No),
            (1, Some(3), LambdaArg::Required),
            (2, Some(2), LambdaArg::Optional),
            (4, Some(4), LambdaArg::No),
        ],
    ),
    ("lstrip", &[(1, Some(1), LambdaArg::No)]),
    ("map", &[(1, Some(1), LambdaArg::Required)]),
    ("match", &[(2, Some(2), LambdaArg::No)]),
    ("max", &[(0, None, LambdaArg::No), (0, None, LambdaArg::Required), (1, Some(1), LambdaArg::Optional)]),
    ("md5", &[(1, Some(1), LambdaArg::No)]),
    ("min", &[(0, None, LambdaArg::No), (0, None, LambdaArg::Required), (1, Some(1), LambdaArg::Optional)]),
    ("module_directory", &[(0, None, LambdaArg::No)]),
    ("new", &[(1, None, LambdaArg::Optional)]),
    ("next", &[(0, Some(1), LambdaArg::No)]),
    ("notice", &[(0, None, LambdaArg::No)]),
    ("partition", &[(1, Some(1), LambdaArg::Required)]),
    ("realize", &[(1, None, LambdaArg::No)]),
    ("reduce", &[(1, Some(1), LambdaArg::Required), (2, Some(2), LambdaArg::Required)]),
    ("regsubst", &[(3, Some(4), LambdaArg::No), (3, Some(5), LambdaArg::No)]),
    ("require", &[(1, None, LambdaArg::No)]),
    ("return", &[(0, Some(1), LambdaArg::No)]),
    ("reverse_each", &[(1, Some(1), LambdaArg::No), (1, Some(1), LambdaArg::Required)]),
    ("round", &[(1, Some(1), LambdaArg::No)]),
    ("rstrip", &[(1, Some(1), LambdaArg::No)]),
    ("scanf", &[(2, Some(2), LambdaArg::Optional)]),
    ("sha1", &[(1, Some(1), LambdaArg::No)]),
    ("sha256", &[(1, Some(1), LambdaArg::No)]),
    ("size", &[(1, Some(1), LambdaArg::No)]),
    ("slice", &[(2, Some(2), LambdaArg::Optional)]),
    ("sort", &[(1, Some(1), LambdaArg::Optional)]),
    ("split", &[(2, Some(2), LambdaArg::No)]),
    ("sprintf", &[(1, None, LambdaArg::No)]),
    ("step", &[(2, Some(2), LambdaArg::No), (2, Some(2), LambdaArg::Required)]),
    ("strftime", &[(1, Some(2), LambdaArg::No), (2, Some(2), LambdaArg::No), (2, Some(3), LambdaArg::No)]),
    ("strip", &[(1, Some(1), LambdaArg::No)]),
    ("tag", &[(1, None, LambdaArg::No)]),
    ("tagged", &[(1, None, LambdaArg::No)]),
    ("template", &[(1, None, LambdaArg::No)]),
    ("then", &[(1, Some(1), LambdaArg::Required)]),
    ("tree_each", &[(1, Some(2), LambdaArg::No), (1, Some(2), LambdaArg::Required)]),
    ("type", &[(1, Some(2), LambdaArg::No), (2, Some(2), LambdaArg::No)]),
    ("unique", &[(1, Some(1), LambdaArg::Optional)]),
    ("unwrap", &[(1, Some(1), LambdaArg::Optional)]),
    ("upcase", &[(1, Some(1), LambdaArg::No)]),
    ("values", &[(1, Some(1), LambdaArg::No)]),
    ("versioncmp", &[(2, Some(3), LambdaArg::No)]),
    ("warning", &[(0, None, LambdaArg::No)]),
    ("with", &[(0, None, LambdaArg::Required)]),
    ("yaml_data", &[(2, Some(2), LambdaArg::No)]),
];

#[cfg(test)]
mod tests {
    #[test]
    fn sorted_for_binary_search() {
        assert!(super::SIGNATURES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(super::dispatches("step").is_some() && super::dispatches("nosuch").is_none());
    }
}
