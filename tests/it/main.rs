//! The integration tests, one module per area, in one test binary.

mod support;

mod cache;
mod cli;
mod context;
mod debian_corpus;
mod format_schemas;
mod grammar_corpus;
mod model;
mod oracle;
mod parser_oracle;
mod policy;
mod pre_commit;
mod reports;
mod robustness;
mod rule_docs;
mod sarif_validator;
mod security;
mod syntax_tree;
mod workflows;
