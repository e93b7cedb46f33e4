fn main() -> std::process::ExitCode {
    mplint::cli::main()
}
