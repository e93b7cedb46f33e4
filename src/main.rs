// mimalloc: the interpreter allocates many small, short-lived values, where
// it is markedly faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    mplint::cli::main()
}
