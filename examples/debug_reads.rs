// Prints the compilations in which reads of a variable at a file:line resolved as they did.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (dir, file_pat, line) = (&args[1], &args[2], args[3].parse::<u32>().unwrap());
    mplint::run_with_large_stack({
        let dir = dir.clone();
        let file_pat = file_pat.clone();
        move || {
            let paths = vec![std::path::PathBuf::from(&dir)];
            let (files, _) = mplint::input::discover(&paths, &globset::GlobSet::empty());
            let parsed: Vec<_> =
                files.iter().map(|p| mplint::syntax::parse_file(p.clone(), std::fs::read(p).unwrap())).collect();
            let ws = mplint::model::workspace::Workspace::discover(&paths, &[]);
            let model = mplint::model::Model::build(&parsed, vec![true; parsed.len()], ws);
            for c in &model.compilations {
                for r in &c.reads {
                    let span = model.span(r.loc);
                    if model.path(r.loc.file).to_string_lossy().contains(&file_pat) && span.start_pos.line == line {
                        println!(
                            "{} | {} | {:?} | chain {:?}",
                            model.describe_entry(c),
                            r.name,
                            r.outcome,
                            c.chain(&r.reader).iter().map(|s| (s.what.clone(), s.how)).collect::<Vec<_>>()
                        );
                    }
                }
            }
        }
    });
}
