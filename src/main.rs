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
    // SAFETY: set before any thread starts and before tree-sitter allocates
    // anything, so every tree-sitter object is freed by the allocator that
    // made it.
    unsafe {
        tree_sitter::set_allocator(Some(ts_malloc), Some(ts_calloc), Some(ts_realloc), Some(ts_free));
    }
    mplint::cli::main()
}

// tree-sitter's parser allocates as much as the interpreter: mimalloc too.
unsafe extern "C" fn ts_malloc(size: usize) -> *mut std::ffi::c_void {
    unsafe { libmimalloc_sys::mi_malloc(size) }
}

unsafe extern "C" fn ts_calloc(count: usize, size: usize) -> *mut std::ffi::c_void {
    let Some(bytes) = count.checked_mul(size) else { return std::ptr::null_mut() };
    unsafe { libmimalloc_sys::mi_zalloc(bytes) }
}

unsafe extern "C" fn ts_realloc(pointer: *mut std::ffi::c_void, size: usize) -> *mut std::ffi::c_void {
    unsafe { libmimalloc_sys::mi_realloc(pointer, size) }
}

unsafe extern "C" fn ts_free(pointer: *mut std::ffi::c_void) {
    unsafe { libmimalloc_sys::mi_free(pointer) }
}
