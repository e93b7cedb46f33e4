// mimalloc: the interpreter allocates many small, short-lived values, where
// it is markedly faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // Without transparent huge pages: the kernel zeroes a whole 2 MiB page
    // at the first touch of mimalloc's memory, and again after mimalloc
    // gives memory back; with small pages a run takes less time and memory.
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE only sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    mplint::cli::main()
}
