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
    // Its argument-mismatch handlers take more, only to fail with a message.
    ("compare", &[(2, Some(2), LambdaArg::No, None), (2, Some(3), LambdaArg::No, None)]),
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
            // Without a lambda it fails on no values at all.
            (1, None, LambdaArg::No, None),
            (0, None, LambdaArg::Required, Some((2, 2))),
            (1, Some(1), LambdaArg::Optional, Some((2, 2))),
        ],
    ),
    ("md5", &[(1, Some(1), LambdaArg::Optional, None)]),
    (
        "min",
        &[
            // Without a lambda it fails on no values at all.
            (1, None, LambdaArg::No, None),
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

/// The parameter types of some of Puppet's functions, one entry per
/// dispatch, in Puppet's order: `Type name` parameters, `?` optional,
/// `*` repeated, `&Callable[…] block` a lambda (`?&` optional). Listed are
/// the functions whose types mplint can judge known values against.
const PARAMETER_TYPES: &[(&str, &[&str])] = &[
    // `Boolean.new(x)`, `Boolean(x)`: strings are compared ignoring case.
    ("Boolean", &["Variant[Integer, Float, Boolean, Pattern[/^(?i:false|true|yes|no|y|n)$/]] from"]),
    // `Integer.new(x)`, `Integer(x)`: a string must look like an integer.
    ("Integer", &[INTEGER_FROM_ARGS, INTEGER_FROM_HASH]),
    ("abs", &["Numeric val", "String val"]),
    ("all", ITERATING),
    ("any", ITERATING),
    ("binary_file", &["String path"]),
    ("camelcase", STRING_CASE),
    ("capitalize", STRING_CASE),
    ("ceiling", &["Numeric val", "String val"]),
    ("chomp", STRING_CASE),
    ("chop", STRING_CASE),
    ("dig", &["Optional[Collection] data, *Any arg"]),
    ("downcase", UP_OR_DOWN_CASE),
    ("each", ITERATING),
    ("empty", &["Collection coll", "Sensitive[String] str", "String str", "Numeric num", "Binary bin", "Undef x"]),
    ("filter", ITERATING),
    ("floor", &["Numeric val", "String val"]),
    ("join", &["Array arg, ?String delimiter"]),
    ("keys", &["Hash hsh"]),
    ("length", &["Collection arg", "String arg", "Binary arg"]),
    ("lstrip", STRING_CASE),
    ("map", ITERATING),
    ("reduce", &["Iterable enumerable, &Callable[2,2] block", "Iterable enumerable, Any memo, &Callable[2,2] block"]),
    ("reverse_each", &["Iterable iterable", "Iterable iterable, &Callable[1,1] block"]),
    ("round", &["Numeric val"]),
    ("rstrip", STRING_CASE),
    ("size", &["Variant[Collection, String, Binary] arg"]),
    (
        "slice",
        &[
            "Hash hash, Integer[1, default] slice_size, ?&Callable block",
            "Iterable enumerable, Integer[1, default] slice_size, ?&Callable block",
        ],
    ),
    ("sort", &["String string_value, ?&Callable[2,2] block", "Array array_value, ?&Callable[2,2] block"]),
    ("split", &["String str, String pattern", "String str, Regexp pattern", "String str, Type[Regexp] pattern"]),
    ("step", &["Iterable iterable, Integer[1] step", "Iterable iterable, Integer[1] step, &Callable[1,1] block"]),
    ("strip", STRING_CASE),
    (
        "tree_each",
        &[
            "Variant[Iterator, Array, Hash, Object] tree, ?OptionsType options, &Callable[2,2] block",
            "Variant[Iterator, Array, Hash, Object] tree, ?OptionsType options, &Callable[1,1] block",
            "Variant[Iterator, Array, Hash, Object] tree, ?OptionsType options",
        ],
    ),
    (
        "type",
        &[
            "Any value, ?Enum[detailed] inference_method",
            "Any value, Enum[reduced] inference_method",
            "Any value, Enum[generalized] inference_method",
        ],
    ),
    (
        "unique",
        &[
            "String string, ?&Callable[String] block",
            "Hash hash, ?&Callable[Any] block",
            "Array array, ?&Callable[Any] block",
            "Iterable iterable, ?&Callable[Any] block",
        ],
    ),
    ("upcase", UP_OR_DOWN_CASE),
    ("values", &["Hash hsh"]),
    ("versioncmp", &["String a, String b, ?Boolean ignore_trailing_zeroes"]),
];

const INTEGER_FROM_ARGS: &str = concat!(
    "Variant[Numeric, Boolean, Pattern[/^[+-]?\\s*(?:[0-9]+|0[xX][0-9A-Fa-f]+|0[bB][01]+)$/]] from, ",
    "?Variant[Default, Integer[2, 2], Integer[8, 8], Integer[10, 10], Integer[16, 16]] radix, ?Boolean abs"
);
const INTEGER_FROM_HASH: &str = concat!(
    "Struct[{from => Variant[Numeric, Boolean, Pattern[/^[+-]?\\s*(?:[0-9]+|0[xX][0-9A-Fa-f]+|0[bB][01]+)$/]], ",
    "Optional[radix] => Variant[Default, Integer[2, 2], Integer[8, 8], Integer[10, 10], Integer[16, 16]], ",
    "Optional[abs] => Boolean}] hash_args"
);

const ITERATING: &[&str] = &[
    "Hash hash, &Callable[2,2] block",
    "Hash hash, &Callable[1,1] block",
    "Iterable enumerable, &Callable[2,2] block",
    "Iterable enumerable, &Callable[1,1] block",
];
const STRING_CASE: &[&str] = &["Numeric arg", "String arg", "Iterable[Variant[String, Numeric]] arg"];
const UP_OR_DOWN_CASE: &[&str] =
    &["Numeric arg", "String arg", "Array[StringData] arg", "Hash[StringData, StringData] arg"];

/// How often a parameter is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occurs {
    Once,
    Optional,
    /// Any number of times, at least this many.
    Repeated(u8),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedParam {
    pub name: String,
    pub type_text: String,
    pub occurs: Occurs,
}

/// A dispatch with its parameters' types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedDispatch {
    pub params: Vec<TypedParam>,
    pub lambda: LambdaArg,
    /// Least and most parameters the lambda is given, when the dispatch says.
    pub lambda_params: Option<(usize, usize)>,
}

impl TypedDispatch {
    fn parse(written: &str) -> Self {
        let mut dispatch = TypedDispatch { params: Vec::new(), lambda: LambdaArg::No, lambda_params: None };
        for part in crate::model::value::split_type_params(written) {
            let (type_text, name) = part.rsplit_once(' ').expect("a parameter has a type and a name");
            let (occurs, type_text) =
                match type_text.split_at(type_text.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(0)) {
                    ("?&" | "&", callable) => {
                        dispatch.lambda =
                            if type_text.starts_with('?') { LambdaArg::Optional } else { LambdaArg::Required };
                        dispatch.lambda_params = callable_params(callable);
                        continue;
                    }
                    ("?", t) => (Occurs::Optional, t),
                    ("*", t) => (Occurs::Repeated(0), t),
                    ("+", t) => (Occurs::Repeated(1), t),
                    (_, t) => (Occurs::Once, t),
                };
            dispatch.params.push(TypedParam { name: name.to_string(), type_text: type_text.to_string(), occurs });
        }
        dispatch
    }

    /// Whether `args` arguments, with a lambda taking the given range of
    /// arguments or without one, fit this dispatch; then the parameter of
    /// each argument.
    pub fn fit(&self, args: usize, lambda: Option<(usize, Option<usize>)>) -> Option<Vec<&TypedParam>> {
        match (self.lambda, lambda) {
            (LambdaArg::No, Some(_)) | (LambdaArg::Required, None) => return None,
            (_, Some((least, most))) => {
                if let Some((min, max)) = self.lambda_params {
                    if least > max || most.is_some_and(|most| most < min) {
                        return None;
                    }
                }
            }
            _ => {}
        }
        let mut taken = Vec::new();
        for param in &self.params {
            match param.occurs {
                Occurs::Once => {
                    if taken.len() == args {
                        return None;
                    }
                    taken.push(param);
                }
                Occurs::Optional => {
                    if taken.len() < args {
                        taken.push(param);
                    }
                }
                Occurs::Repeated(least) => {
                    if args < taken.len() + usize::from(least) {
                        return None;
                    }
                    while taken.len() < args {
                        taken.push(param);
                    }
                }
            }
        }
        (taken.len() == args).then_some(taken)
    }
}

/// `Callable[1,1]`: 1 to 1 parameters; `Callable[String]`: one; `Callable`: any.
fn callable_params(callable: &str) -> Option<(usize, usize)> {
    let inner = callable.strip_prefix("Callable[")?.strip_suffix(']')?;
    let parts = crate::model::value::split_type_params(inner);
    let bounds: Option<Vec<usize>> = parts.iter().map(|p| p.parse().ok()).collect();
    match bounds.as_deref() {
        Some([min, max]) => Some((*min, *max)),
        Some(_) => None,
        None => Some((parts.len(), parts.len())),
    }
}

/// The typed dispatches of a function of Puppet's, by name, each with its
/// signature as written.
pub fn typed_dispatches(name: &str) -> Option<&'static [(TypedDispatch, &'static str)]> {
    type Parsed = rustc_hash::FxHashMap<&'static str, Vec<(TypedDispatch, &'static str)>>;
    // Asked at every call: parsed once, found by hashing.
    static PARSED: std::sync::OnceLock<Parsed> = std::sync::OnceLock::new();
    let parsed = PARSED.get_or_init(|| {
        PARAMETER_TYPES
            .iter()
            .map(|(name, written)| (*name, written.iter().map(|w| (TypedDispatch::parse(w), *w)).collect()))
            .collect()
    });
    parsed.get(name).map(Vec::as_slice)
}

#[cfg(test)]
mod typed_tests {
    use super::*;

    #[test]
    fn parameter_types_are_sorted_and_parse() {
        assert!(PARAMETER_TYPES.windows(2).all(|w| w[0].0 < w[1].0));
        for (name, _) in PARAMETER_TYPES {
            let typed = typed_dispatches(name).unwrap();
            assert!(typed.iter().all(|(d, _)| !d.params.is_empty()), "{name}");
        }
        let step: Vec<&TypedDispatch> = typed_dispatches("step").unwrap().iter().map(|(d, _)| d).collect();
        assert_eq!(step[1].lambda, LambdaArg::Required);
        assert_eq!(step[1].lambda_params, Some((1, 1)));
        assert_eq!(step[0].fit(2, None).map(|p| p.len()), Some(2));
        assert!(step[0].fit(3, None).is_none());
        assert!(step[1].fit(2, None).is_none());
        let dig = &typed_dispatches("dig").unwrap()[0].0;
        assert_eq!(dig.fit(4, None).map(|p| p[3].name.clone()), Some("arg".to_string()));
        let unique = &typed_dispatches("unique").unwrap()[0].0;
        assert_eq!(unique.lambda_params, Some((1, 1)));
        assert!(unique.fit(1, Some((2, Some(2)))).is_none());
    }
}
