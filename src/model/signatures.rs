//! The signatures of Puppet's own functions: how many arguments each of
//! their dispatches takes, whether it takes a lambda, and with how many
//! parameters. Read from the
//! dispatches of Puppet 7.23's functions (`lib/puppet/functions`) and the
//! arities of its older ones (`lib/puppet/parser/functions`, which take a
//! lambda and ignore it); a function with dispatches mplint cannot read is
//! not listed.

/// Whether a dispatch takes a lambda.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LambdaArg {
    No,
    Optional,
    Required,
}

/// One dispatch: least and most arguments (`None`: no limit), the lambda,
/// and how many parameters the lambda is given (least and most), when the
/// dispatch says.
pub type Dispatch = (u8, Option<u8>, LambdaArg, Option<(u8, u8)>);

/// The dispatches of a function of Puppet's, by name.
pub fn dispatches(name: &str) -> Option<&'static [Dispatch]> {
    SIGNATURES.binary_search_by(|(n, _)| n.cmp(&name)).ok().map(|i| SIGNATURES[i].1)
}

/// Sorted by name.
const SIGNATURES: &[(&str, &[Dispatch])] = &[
    ("abs", &[(1, Some(1), LambdaArg::No, None)]),
    ("alert", &[(0, None, LambdaArg::No, None)]),
    ("all", &[(1, Some(1), LambdaArg::Required, Some((1, 1))), (1, Some(1), LambdaArg::Required, Some((2, 2)))]),
    ("annotate", &[(2, Some(2), LambdaArg::Optional, Some((0, 0))), (3, Some(3), LambdaArg::No, None)]),
    ("any", &[(1, Some(1), LambdaArg::Required, Some((1, 1))), (1, Some(1), LambdaArg::Required, Some((2, 2)))]),
    ("assert_type", &[(2, Some(2), LambdaArg::Optional, None)]),
    ("binary_file", &[(1, Some(1), LambdaArg::No, None)]),
    ("break", &[(0, Some(0), LambdaArg::No, None)]),
    ("call", &[(1, None, LambdaArg::Optional, None), (1, Some(1), LambdaArg::No, None)]),
    ("camelcase", &[(1, Some(1), LambdaArg::No, None)]),
    ("capitalize", &[(1, Some(1), LambdaArg::No, None)]),
    ("ceiling", &[(1, Some(1), LambdaArg::No, None)]),
    ("chomp", &[(1, Some(1), LambdaArg::No, None)]),
    ("chop", &[(1, Some(1), LambdaArg::No, None)]),
    (
        "compare",
        &[(2, None, LambdaArg::No, None), (2, Some(2), LambdaArg::No, None), (2, Some(3), LambdaArg::No, None)],
    ),
    ("contain", &[(1, None, LambdaArg::No, None)]),
    ("convert_to", &[(2, None, LambdaArg::Optional, Some((1, 1)))]),
    ("create_resources", &[(2, None, LambdaArg::Optional, None)]),
    ("crit", &[(0, None, LambdaArg::No, None)]),
    ("debug", &[(0, None, LambdaArg::No, None)]),
    ("defined", &[(1, None, LambdaArg::No, None)]),
    ("dig", &[(1, None, LambdaArg::No, None)]),
    ("digest", &[(1, Some(1), LambdaArg::Optional, None)]),
    ("downcase", &[(1, Some(1), LambdaArg::No, None)]),
    ("each", &[(1, Some(1), LambdaArg::Required, Some((1, 1))), (1, Some(1), LambdaArg::Required, Some((2, 2)))]),
    ("emerg", &[(0, None, LambdaArg::No, None)]),
    ("empty", &[(1, Some(1), LambdaArg::No, None)]),
    ("epp", &[(1, Some(2), LambdaArg::No, None)]),
    ("err", &[(0, None, LambdaArg::No, None)]),
    ("eyaml_lookup_key", &[(3, Some(3), LambdaArg::No, None)]),
    ("fail", &[(0, None, LambdaArg::Optional, None)]),
    ("file", &[(1, None, LambdaArg::Optional, None)]),
    ("filter", &[(1, Some(1), LambdaArg::Required, Some((1, 1))), (1, Some(1), LambdaArg::Required, Some((2, 2)))]),
    ("find_file", &[(0, None, LambdaArg::No, None)]),
    ("find_template", &[(0, None, LambdaArg::No, None)]),
    ("flatten", &[(0, None, LambdaArg::No, None)]),
    ("floor", &[(1, Some(1), LambdaArg::No, None)]),
    ("fqdn_rand", &[(1, None, LambdaArg::Optional, None)]),
    ("generate", &[(1, None, LambdaArg::Optional, None)]),
    ("get", &[(2, Some(3), LambdaArg::Optional, Some((1, 1)))]),
    ("getvar", &[(1, Some(2), LambdaArg::Optional, None), (1, Some(2), LambdaArg::Optional, Some((1, 1)))]),
    ("group_by", &[(1, Some(1), LambdaArg::Required, Some((1, 1))), (1, Some(1), LambdaArg::Required, Some((2, 2)))]),
    ("hiera", &[(1, None, LambdaArg::Optional, None)]),
    ("hiera_array", &[(1, None, LambdaArg::Optional, None)]),
    ("hiera_hash", &[(1, None, LambdaArg::Optional, None)]),
    ("hiera_include", &[(1, None, LambdaArg::Optional, None)]),
    ("hocon_data", &[(2, Some(2), LambdaArg::No, None)]),
    ("include", &[(1, None, LambdaArg::No, None)]),
    (
        "index",
        &[
            (1, Some(1), LambdaArg::Required, Some((1, 1))),
            (1, Some(1), LambdaArg::Required, Some((2, 2))),
            (2, Some(2), LambdaArg::No, None),
        ],
    ),
    ("info", &[(0, None, LambdaArg::No, None)]),
    ("inline_epp", &[(1, Some(2), LambdaArg::No, None)]),
    ("inline_template", &[(1, None, LambdaArg::Optional, None)]),
    ("join", &[(1, Some(2), LambdaArg::No, None)]),
    ("json_data", &[(2, Some(2), LambdaArg::No, None)]),
    ("keys", &[(1, Some(1), LambdaArg::No, None)]),
    ("length", &[(1, Some(1), LambdaArg::No, None)]),
    ("lest", &[(1, Some(1), LambdaArg::Required, Some((0, 0)))]),
    (
        "lookup",
        &[
            (1, Some(1), LambdaArg::Optional, None),
            (1, Some(3), LambdaArg::No, None),
            (1, Some(3), LambdaArg::Required, None),
            (2, Some(2), LambdaArg::Optional, None),
            (4, Some(4), LambdaArg::No, None),
        ],
    ),
    ("lstrip", &[(1, Some(1), LambdaArg::No, None)]),
    ("map", &[(1, Some(1), LambdaArg::Required, Some((1, 1))), (1, Some(1), LambdaArg::Required, Some((2, 2)))]),
    ("match", &[(2, Some(2), LambdaArg::No, None)]),
    (
        "max",
        &[
            (0, None, LambdaArg::No, None),
            (0, None, LambdaArg::Required, Some((2, 2))),
            (1, Some(1), LambdaArg::Optional, Some((2, 2))),
        ],
    ),
    ("md5", &[(1, Some(1), LambdaArg::Optional, None)]),
    (
        "min",
        &[
            (0, None, LambdaArg::No, None),
            (0, None, LambdaArg::Required, Some((2, 2))),
            (1, Some(1), LambdaArg::Optional, Some((2, 2))),
        ],
    ),
    ("module_directory", &[(0, None, LambdaArg::No, None)]),
    ("new", &[(1, None, LambdaArg::Optional, None)]),
    ("next", &[(0, Some(1), LambdaArg::No, None)]),
    ("notice", &[(0, None, LambdaArg::No, None)]),
    ("partition", &[(1, Some(1), LambdaArg::Required, Some((1, 1))), (1, Some(1), LambdaArg::Required, Some((2, 2)))]),
    ("realize", &[(1, None, LambdaArg::Optional, None)]),
    ("reduce", &[(1, Some(1), LambdaArg::Required, Some((2, 2))), (2, Some(2), LambdaArg::Required, Some((2, 2)))]),
    ("regsubst", &[(3, Some(4), LambdaArg::No, None), (3, Some(5), LambdaArg::No, None)]),
    ("require", &[(1, None, LambdaArg::No, None)]),
    ("return", &[(0, Some(1), LambdaArg::No, None)]),
    ("reverse_each", &[(1, Some(1), LambdaArg::No, None), (1, Some(1), LambdaArg::Required, Some((1, 1)))]),
    ("round", &[(1, Some(1), LambdaArg::No, None)]),
    ("rstrip", &[(1, Some(1), LambdaArg::No, None)]),
    ("scanf", &[(2, Some(2), LambdaArg::Optional, None)]),
    ("sha1", &[(1, Some(1), LambdaArg::Optional, None)]),
    ("sha256", &[(1, Some(1), LambdaArg::Optional, None)]),
    ("size", &[(1, Some(1), LambdaArg::No, None)]),
    ("slice", &[(2, Some(2), LambdaArg::Optional, None)]),
    ("sort", &[(1, Some(1), LambdaArg::Optional, Some((2, 2)))]),
    ("split", &[(2, Some(2), LambdaArg::No, None)]),
    ("sprintf", &[(1, None, LambdaArg::Optional, None)]),
    ("step", &[(2, Some(2), LambdaArg::No, None), (2, Some(2), LambdaArg::Required, Some((1, 1)))]),
    (
        "strftime",
        &[(1, Some(2), LambdaArg::No, None), (2, Some(2), LambdaArg::No, None), (2, Some(3), LambdaArg::No, None)],
    ),
    ("strip", &[(1, Some(1), LambdaArg::No, None)]),
    ("tag", &[(1, None, LambdaArg::Optional, None)]),
    ("tagged", &[(1, None, LambdaArg::Optional, None)]),
    ("template", &[(1, None, LambdaArg::Optional, None)]),
    ("then", &[(1, Some(1), LambdaArg::Required, Some((1, 1)))]),
    (
        "tree_each",
        &[
            (1, Some(2), LambdaArg::No, None),
            (1, Some(2), LambdaArg::Required, Some((1, 1))),
            (1, Some(2), LambdaArg::Required, Some((2, 2))),
        ],
    ),
    ("type", &[(1, Some(2), LambdaArg::No, None), (2, Some(2), LambdaArg::No, None)]),
    ("unique", &[(1, Some(1), LambdaArg::Optional, None)]),
    ("unwrap", &[(1, Some(1), LambdaArg::Optional, None)]),
    ("upcase", &[(1, Some(1), LambdaArg::No, None)]),
    ("values", &[(1, Some(1), LambdaArg::No, None)]),
    ("versioncmp", &[(2, Some(3), LambdaArg::No, None)]),
    ("warning", &[(0, None, LambdaArg::No, None)]),
    ("with", &[(0, None, LambdaArg::Required, None)]),
    ("yaml_data", &[(2, Some(2), LambdaArg::No, None)]),
];

#[cfg(test)]
mod tests {
    #[test]
    fn sorted_for_binary_search() {
        assert!(super::SIGNATURES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(super::dispatches("step").is_some() && super::dispatches("nosuch").is_none());
    }
}
