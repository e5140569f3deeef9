//! The device layer: NVRTC compile, cudarc launch, cuBLAS reference, CUDA-event timing.
//!
//! cudarc opens libcuda/libnvrtc/libcublas at run time and panics when one is missing, so the
//! libraries are probed first and the whole run is wrapped in `catch_unwind`: every failure is
//! one `EvalError` (kind Runtime), never a panic.
//! May import: `runtime::config`, `eval::error`.
// `!(err <= tol)` is deliberate: a NaN error must fail the check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::config::{DType, GemmConfig, Major};
use super::kernel::KERNEL_NAME;
use super::sm90::Sm90Config;
use crate::eval::error::{EvalError, R};
use cudarc::cublas::{result as blas, sys as blas_sys};
use cudarc::driver::{
    sys as drv_sys, CudaContext, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::{CompileError, CompileOptions};
use std::sync::Arc;

/// One measured configuration.
#[derive(Clone, Debug)]
pub struct Measured {
    pub ms: f64,
    pub tflops: f64,
    pub cublas_ms: f64,
    pub cublas_tflops: f64,
    pub rel_err: f64,
    /// ||C - ref|| / ||ref|| on sampled elements against a float64 host reference.
    pub ref64_err: f64,
    pub ref64_samples: usize,
    /// ptxas's resource line (registers, spills, stack) when compiled to CUBIN here.
    pub resources: Option<String>,
}

/// What the device layer needs of a kernel of either architecture.
pub struct Job<'a> {
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub dtype: DType,
    pub out: DType,
    pub a_major: Major,
    pub b_major: Major,
    pub describe: String,
    pub iters: i64,
    pub warmup: i64,
    pub grid: i64,
    pub block: i64,
    pub smem: i64,
    pub flops: f64,
    pub src: &'a str,
    /// The Hopper kernel: TMA tensor maps for A and B, compiled to an sm_90a CUBIN.
    pub sm90: Option<TmaJob>,
}

/// TMA boxes (inner, outer elements: the contiguous dimension first) and swizzle widths of A
/// and B; a persistent grid.
pub struct TmaJob {
    pub a_box: (i64, i64),
    pub b_box: (i64, i64),
    pub a_swizzle: i64,
    pub b_swizzle: i64,
    pub persistent: bool,
    /// The TMA-store epilogue's box of C (columns, rows), 128-byte swizzled.
    pub c_box: Option<(i64, i64)>,
    /// CTAs per cluster (the grid is whole clusters).
    pub cluster: i64,
}

impl<'a> Job<'a> {
    pub fn sm80(cfg: &GemmConfig, src: &'a str) -> Job<'a> {
        Job {
            m: cfg.m,
            n: cfg.n,
            k: cfg.k,
            dtype: cfg.dtype,
            out: cfg.out,
            a_major: cfg.a.major,
            b_major: cfg.b.major,
            describe: cfg.describe(),
            iters: cfg.iters,
            warmup: cfg.warmup,
            grid: ((cfg.m + cfg.bm - 1) / cfg.bm) * ((cfg.n + cfg.bn - 1) / cfg.bn),
            block: cfg.threads(),
            smem: cfg.smem_bytes(),
            flops: cfg.flops(),
            src,
            sm90: None,
        }
    }
    pub fn sm90(cfg: &Sm90Config, src: &'a str) -> Job<'a> {
        Job {
            m: cfg.m,
            n: cfg.n,
            k: cfg.k,
            dtype: cfg.dtype,
            out: cfg.out,
            a_major: cfg.a.major,
            b_major: cfg.b.major,
            describe: cfg.describe(),
            iters: cfg.iters,
            warmup: cfg.warmup,
            grid: cfg.work(),
            block: cfg.threads(),
            smem: cfg.smem_bytes(),
            flops: cfg.flops(),
            src,
            sm90: Some(TmaJob {
                a_box: cfg.a.tma_box(),
                b_box: cfg.b.tma_box(),
                a_swizzle: cfg.a.swizzle_bytes,
                b_swizzle: cfg.b.swizzle_bytes,
                persistent: cfg.persistent,
                c_box: cfg.epi.as_ref().map(|e| (e.cols, 64)),
                cluster: cfg.cluster,
            }),
        }
    }
}

/// The compute capability of GPU 0, if a driver and a GPU are there.
pub fn compute_capability() -> Option<(i32, i32)> {
    if !guarded(|| unsafe { cudarc::driver::sys::is_culib_present() }).unwrap_or(false) {
        return None;
    }
    guarded(|| CudaContext::new(0).ok().and_then(|c| c.compute_capability().ok())).ok().flatten()
}

/// NVRTC straight to CUBIN for `arch` with ptxas's verbose report: (cubin, the log).
pub fn compile_cubin(src: &str, arch: &str) -> R<(Vec<u8>, String)> {
    use cudarc::nvrtc::sys as nv;
    if !guarded(|| unsafe { nv::is_culib_present() }).unwrap_or(false) {
        return Err(err(
            "no NVRTC",
            "libnvrtc.so was not found (install the CUDA toolkit or `pip install nvidia-cuda-nvrtc` and put its lib folder on LD_LIBRARY_PATH)",
        ));
    }
    let run = || -> R<(Vec<u8>, String)> {
        let csrc = std::ffi::CString::new(src).map_err(|_| err("NVRTC error", "source has a NUL"))?;
        let name = std::ffi::CString::new("cute_gemm.cu").map_err(|_| err("NVRTC error", "name"))?;
        let mut prog: nv::nvrtcProgram = std::ptr::null_mut();
        let ok = |r: nv::nvrtcResult, what: &str| -> R<()> {
            if r == nv::nvrtcResult::NVRTC_SUCCESS {
                Ok(())
            } else {
                Err(err("NVRTC error", format!("{what}: {r:?}")))
            }
        };
        unsafe {
            ok(
                nv::nvrtcCreateProgram(&mut prog, csrc.as_ptr(), name.as_ptr(), 0, std::ptr::null(), std::ptr::null()),
                "create program",
            )?;
        }
        let opts: Vec<std::ffi::CString> =
            [format!("--gpu-architecture={arch}"), "--std=c++17".into(), "--ptxas-options=-v".into()]
                .into_iter()
                .map(|o| std::ffi::CString::new(o).unwrap_or_default())
                .collect();
        let optp: Vec<*const std::ffi::c_char> = opts.iter().map(|o| o.as_ptr()).collect();
        let rc = unsafe { nv::nvrtcCompileProgram(prog, optp.len() as i32, optp.as_ptr()) };
        let mut log_size = 0usize;
        let log = unsafe {
            ok(nv::nvrtcGetProgramLogSize(prog, &mut log_size), "log size")?;
            let mut buf = vec![0u8; log_size.max(1)];
            ok(nv::nvrtcGetProgramLog(prog, buf.as_mut_ptr() as *mut _), "log")?;
            String::from_utf8_lossy(&buf).trim_end_matches('\0').to_string()
        };
        if rc != nv::nvrtcResult::NVRTC_SUCCESS {
            unsafe { nv::nvrtcDestroyProgram(&mut prog) };
            return Err(err(
                "NVRTC compile error",
                format!("the generated kernel does not compile for {arch}:\n{}", log.trim_end()),
            ));
        }
        let mut size = 0usize;
        let cubin = unsafe {
            ok(nv::nvrtcGetCUBINSize(prog, &mut size), "cubin size")?;
            let mut buf = vec![0u8; size];
            ok(nv::nvrtcGetCUBIN(prog, buf.as_mut_ptr() as *mut _), "cubin")?;
            nv::nvrtcDestroyProgram(&mut prog);
            buf
        };
        Ok((cubin, log))
    };
    match guarded(run) {
        Ok(r) => r,
        Err(p) => Err(err("NVRTC error", p)),
    }
}

/// Registers, spill bytes (stores + loads) and stack frame bytes from ptxas's `-v` report.
pub fn ptxas_resources(log: &str) -> Option<(i64, i64, i64)> {
    let num_before = |line: &str, unit: &str| -> Option<i64> {
        let i = line.find(unit)?;
        line[..i].trim_end().rsplit(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
    };
    let regs = log
        .lines()
        .find(|l| l.contains("Used ") && l.contains(" registers"))
        .and_then(|l| num_before(l, " registers"))?;
    let line = log.lines().find(|l| l.contains("spill stores"))?;
    let stores = num_before(line, " bytes spill stores")?;
    let loads = num_before(line, " bytes spill loads")?;
    let stack = num_before(line, " bytes stack frame")?;
    Some((regs, stores + loads, stack))
}

/// The 128-byte CUtensorMap, passed by value as a `__grid_constant__` kernel parameter.
#[repr(C, align(64))]
#[derive(Clone, Copy)]
pub struct TmaMap([u64; 16]);
unsafe impl cudarc::driver::DeviceRepr for TmaMap {}

/// `cuTensorMapEncodeTiled` of a K-major operand: `rows` rows of `k` 16-bit elements, the box
/// (K elements, rows) with the swizzle of `swizzle` bytes; out-of-bounds elements read as zero.
/// (inner, outer) global extents of an operand of `major` with K and M or N elements.
fn extents(major: Major, k: i64, mn: i64) -> (i64, i64) {
    match major {
        Major::K => (k, mn),
        Major::MN => (mn, k),
    }
}

/// A 2-d tensor map of `dtype` elements, `inner` contiguous: rows of `inner` elements, `outer` rows.
fn tensor_map(dtype: DType, ptr: u64, (inner, outer): (i64, i64), boxd: (i64, i64), swizzle: i64) -> R<TmaMap> {
    use drv_sys::*;
    let mut map = std::mem::MaybeUninit::<CUtensorMap>::zeroed();
    let dims: [cuuint64_t; 2] = [inner as u64, outer as u64];
    let eb = if dtype == DType::F32 { 4 } else { 2 };
    let strides: [cuuint64_t; 1] = [(inner * eb) as u64];
    let bx: [cuuint32_t; 2] = [boxd.0 as u32, boxd.1 as u32];
    let es: [cuuint32_t; 2] = [1, 1];
    let sw = match swizzle {
        128 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
        64 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_64B,
        32 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_32B,
        _ => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE,
    };
    let dt = match dtype {
        DType::BF16 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        DType::F16 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        DType::F32 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
    };
    let r = unsafe {
        cuTensorMapEncodeTiled(
            map.as_mut_ptr(),
            dt,
            2,
            ptr as *mut std::ffi::c_void,
            dims.as_ptr(),
            strides.as_ptr(),
            bx.as_ptr(),
            es.as_ptr(),
            CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
            sw,
            CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    };
    if r != CUresult::CUDA_SUCCESS {
        return Err(err(
            "CUDA error",
            format!("cuTensorMapEncodeTiled ({outer}x{inner}, box {boxd:?}, swizzle {swizzle}): {r:?}"),
        ));
    }
    let map = unsafe { map.assume_init() };
    let mut out = TmaMap([0; 16]);
    // CUtensorMap is 128 opaque bytes
    unsafe { std::ptr::copy_nonoverlapping(&map as *const _ as *const u8, out.0.as_mut_ptr() as *mut u8, 128) };
    Ok(out)
}

/// How many clusters of the kernel (compiled with `__cluster_dims__`) can be resident at once.
fn max_clusters(func: &cudarc::driver::CudaFunction, cfg: &Job, cluster: i64) -> R<i64> {
    let lc = drv_sys::CUlaunchConfig {
        gridDimX: (cfg.grid * cluster) as u32,
        gridDimY: 1,
        gridDimZ: 1,
        blockDimX: cfg.block as u32,
        blockDimY: 1,
        blockDimZ: 1,
        sharedMemBytes: cfg.smem as u32,
        hStream: std::ptr::null_mut(),
        attrs: std::ptr::null_mut(),
        numAttrs: 0,
    };
    let mut n: std::ffi::c_int = 0;
    let r = unsafe { drv_sys::cuOccupancyMaxActiveClusters(&mut n, func.cu_function(), &lc) };
    if r != drv_sys::CUresult::CUDA_SUCCESS || n < 1 {
        return Err(err("CUDA error", format!("cuOccupancyMaxActiveClusters: {r:?} ({n} clusters)")));
    }
    Ok(n as i64)
}

fn err(rule: &str, detail: impl Into<String>) -> EvalError {
    EvalError::runtime(rule, detail)
}

/// Which of the CUDA libraries can be opened (driver, NVRTC, cuBLAS).
pub fn libraries_present() -> (bool, bool, bool) {
    let probe = || unsafe {
        (
            cudarc::driver::sys::is_culib_present(),
            cudarc::nvrtc::sys::is_culib_present(),
            cudarc::cublas::sys::is_culib_present(),
        )
    };
    guarded(probe).unwrap_or((false, false, false))
}

/// Run `f`, turning a panic (a missing library or symbol inside cudarc) into an error.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(prev);
    r.map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown failure".to_string())
    })
}

/// Compile CUDA source to PTX with NVRTC for `arch` (e.g. "sm_80", "sm_90a").
pub fn compile(src: &str, arch: &'static str) -> R<String> {
    if !guarded(|| unsafe { cudarc::nvrtc::sys::is_culib_present() }).unwrap_or(false) {
        return Err(err(
            "no NVRTC",
            "libnvrtc.so was not found (install the CUDA toolkit or `pip install nvidia-cuda-nvrtc` and put its lib folder on LD_LIBRARY_PATH)",
        ));
    }
    let opts = CompileOptions { arch: Some(arch), options: vec!["--std=c++17".to_string()], ..Default::default() };
    match guarded(|| cudarc::nvrtc::compile_ptx_with_opts(src, opts)) {
        Ok(Ok(ptx)) => Ok(ptx.to_src()),
        Ok(Err(CompileError::CompileError { log, .. })) => Err(err(
            "NVRTC compile error",
            format!("the generated kernel does not compile for {arch}:\n{}", log.to_string_lossy().trim_end()),
        )),
        Ok(Err(e)) => Err(err("NVRTC error", format!("{e:?}"))),
        Err(p) => Err(err("NVRTC error", p)),
    }
}

/// `run gemm`: compile, run, check against cuBLAS, time.
pub fn run(cfg: &Job) -> R<Measured> {
    let (drv, nvrtc, cublas) = libraries_present();
    if !drv {
        return Err(err(
            "no GPU",
            "the CUDA driver (libcuda.so) was not found: `run gemm` needs an NVIDIA GPU and driver (`emit gemm` prints the kernel without one)",
        ));
    }
    if !nvrtc {
        return Err(err(
            "no NVRTC",
            "libnvrtc.so was not found: `run gemm` compiles kernels with NVRTC (CUDA toolkit)",
        ));
    }
    if !cublas {
        return Err(err("no cuBLAS", "libcublas.so was not found: `run gemm` checks and times against cuBLAS"));
    }
    match guarded(|| run_inner(cfg)) {
        Ok(r) => r,
        Err(p) => Err(err("CUDA error", p)),
    }
}

fn drv<T>(what: &str, r: Result<T, cudarc::driver::DriverError>) -> R<T> {
    r.map_err(|e| err("CUDA error", format!("{what}: {e:?}")))
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
}

fn to_bits(d: DType, x: f32) -> u16 {
    match d {
        DType::BF16 => half::bf16::from_f32(x).to_bits(),
        _ => half::f16::from_f32(x).to_bits(),
    }
}

fn from_bits(d: DType, b: u16) -> f64 {
    match d {
        DType::BF16 => half::bf16::from_bits(b).to_f64(),
        _ => half::f16::from_bits(b).to_f64(),
    }
}

fn blas_type(d: DType) -> blas_sys::cudaDataType {
    match d {
        DType::F16 => blas_sys::cudaDataType::CUDA_R_16F,
        DType::BF16 => blas_sys::cudaDataType::CUDA_R_16BF,
        DType::F32 => blas_sys::cudaDataType::CUDA_R_32F,
    }
}

/// Output buffer of either element type.
enum Out {
    H(CudaSlice<u16>),
    F(CudaSlice<f32>),
}

impl Out {
    fn ptr(&mut self, s: &Arc<CudaStream>) -> u64 {
        match self {
            Out::H(b) => b.device_ptr_mut(s).0,
            Out::F(b) => b.device_ptr_mut(s).0,
        }
    }
    fn bytes(&self) -> usize {
        match self {
            Out::H(b) => b.len() * 2,
            Out::F(b) => b.len() * 4,
        }
    }
    fn host(&self, s: &Arc<CudaStream>, d: DType) -> R<Vec<f64>> {
        Ok(match self {
            Out::H(b) => drv("copy C to host", s.clone_dtoh(b))?.into_iter().map(|x| from_bits(d, x)).collect(),
            Out::F(b) => drv("copy C to host", s.clone_dtoh(b))?.into_iter().map(|x| x as f64).collect(),
        })
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    if v.is_empty() {
        return f64::NAN;
    }
    v[v.len() / 2]
}

/// Tolerance on ||C - ref|| / ||ref|| for the output type (about 5x the usual rounding).
pub fn tolerance(out: DType) -> f64 {
    match out {
        DType::F16 => 1e-3,
        DType::BF16 => 8e-3,
        DType::F32 => 1e-4,
    }
}

fn run_inner(cfg: &Job) -> R<Measured> {
    let ctx = CudaContext::new(0).map_err(|e| err("no GPU", format!("could not open GPU 0: {e:?}")))?;
    let (major, minor) = drv("compute capability", ctx.compute_capability())?;
    if major < 8 {
        return Err(err(
            "GPU too old",
            format!("the kernel uses sm_80 instructions (mma.sync, ldmatrix, cp.async); this GPU is sm_{major}{minor}"),
        ));
    }
    if cfg.sm90.is_some() && major != 9 {
        return Err(err(
            "GPU not Hopper",
            format!("the sm90 kernel uses wgmma and TMA (sm_90a); this GPU is sm_{major}{minor} (use arch=sm80)"),
        ));
    }
    let arch: &'static str = match (major, minor) {
        (8, 0) => "sm_80",
        (8, 6) => "sm_86",
        (8, 7) => "sm_87",
        (8, 9) => "sm_89",
        (9, 0) => "sm_90",
        _ => "sm_80",
    };
    let optin = drv(
        "device attribute",
        ctx.attribute(drv_sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
    )? as i64;
    if cfg.smem > optin {
        return Err(err(
            "shared memory",
            format!("the kernel needs {} bytes of shared memory per block; this GPU allows {optin}", cfg.smem),
        ));
    }
    unsafe { ctx.disable_event_tracking() };
    let mut resources = None;
    let module = if cfg.sm90.is_some() {
        let (cubin, log) = compile_cubin(cfg.src, "sm_90a")?;
        // ptxas's own warnings (a serialized wgmma, an ignored setmaxnreg) are worth seeing
        let warnings: Vec<&str> = log.lines().filter(|l| l.contains("warning")).map(|l| l.trim()).collect();
        resources = Some(match ptxas_resources(&log) {
            Some((r, s, f)) => {
                let w = if warnings.is_empty() { String::new() } else { format!("; ptxas: {}", warnings.join(" / ")) };
                format!("{r} registers, {s} bytes spilled, {f} bytes stack{w}")
            }
            // NVRTC's log is sometimes empty on the GPU machine (same source, other runs fine):
            // the loaded function's attributes below then say what the driver sees
            None => String::new(),
        });
        drv("load module", ctx.load_module(cudarc::nvrtc::Ptx::from_binary(cubin)))?
    } else {
        let ptx = compile(cfg.src, arch)?;
        drv("load module", ctx.load_module(cudarc::nvrtc::Ptx::from_src(ptx)))?
    };
    let func = drv("load function", module.load_function(KERNEL_NAME))?;
    if resources.as_deref() == Some("") {
        use drv_sys::CUfunction_attribute as A;
        let regs = drv("function attribute", func.get_attribute(A::CU_FUNC_ATTRIBUTE_NUM_REGS))?;
        let local = drv("function attribute", func.get_attribute(A::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES))?;
        resources =
            Some(format!("{regs} registers, {local} bytes local memory (from the driver; NVRTC gave no ptxas log)"));
    }
    drv(
        "set shared memory",
        func.set_attribute(
            drv_sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            cfg.smem as i32,
        ),
    )?;
    let sms =
        drv("device attribute", ctx.attribute(drv_sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT))?
            as i64;
    let stream = ctx.default_stream();

    let (m, n, k) = (cfg.m as usize, cfg.n as usize, cfg.k as usize);
    let mut rng = Rng(0x9E3779B97F4A7C15 ^ (m as u64) << 1 ^ (n as u64) << 21 ^ (k as u64) << 41);
    let ah: Vec<u16> = (0..m * k).map(|_| to_bits(cfg.dtype, rng.next())).collect();
    let bh: Vec<u16> = (0..n * k).map(|_| to_bits(cfg.dtype, rng.next())).collect();
    let a = drv("copy A", stream.clone_htod(&ah))?;
    let b = drv("copy B", stream.clone_htod(&bh))?;
    let alloc = |len: usize| -> R<Out> {
        Ok(match cfg.out {
            DType::F32 => Out::F(drv("allocate C", stream.alloc_zeros::<f32>(len))?),
            _ => Out::H(drv("allocate C", stream.alloc_zeros::<u16>(len))?),
        })
    };
    let mut c = alloc(m * n)?;
    let mut cref = alloc(m * n)?;
    // poison: all bits set is NaN in f16, bf16 and f32
    for buf in [&mut c, &mut cref] {
        let (p, bytes) = (buf.ptr(&stream), buf.bytes());
        drv("poison C", unsafe { cudarc::driver::result::memset_d8_async(p, 0xFF, bytes, stream.cu_stream()) })?;
    }

    let grid = match &cfg.sm90 {
        // work items of `cluster` CTAs each; persistent: as many clusters as the GPU holds at
        // once (fewer than SMs / 2 when the GPCs' SM counts are odd): a second wave would
        // double the time
        Some(t) if t.persistent && t.cluster > 1 => cfg.grid.min(max_clusters(&func, cfg, t.cluster)?) * t.cluster,
        Some(t) if t.persistent => cfg.grid.min(sms),
        Some(t) => cfg.grid * t.cluster,
        None => cfg.grid,
    };
    let lc = LaunchConfig {
        grid_dim: (grid as u32, 1, 1),
        block_dim: (cfg.block as u32, 1, 1),
        shared_mem_bytes: cfg.smem as u32,
    };
    let maps = match &cfg.sm90 {
        Some(t) => {
            let (pa, _ga) = a.device_ptr(&stream);
            let (pb, _gb) = b.device_ptr(&stream);
            Some((
                // global extents, the contiguous dimension first
                tensor_map(cfg.dtype, pa, extents(cfg.a_major, cfg.k, cfg.m), t.a_box, t.a_swizzle)?,
                tensor_map(cfg.dtype, pb, extents(cfg.b_major, cfg.k, cfg.n), t.b_box, t.b_swizzle)?,
                match t.c_box {
                    Some(bx) => Some(tensor_map(cfg.out, c.ptr(&stream), (cfg.n, cfg.m), bx, 128)?),
                    None => None,
                },
            ))
        }
        None => None,
    };
    let launch = |c: &mut Out| -> R<()> {
        let mut lb = stream.launch_builder(&func);
        match &maps {
            Some((ma, mb, Some(mc))) => lb.arg(ma).arg(mb).arg(mc),
            Some((ma, mb, None)) => lb.arg(ma).arg(mb),
            None => lb.arg(&a).arg(&b),
        };
        match c {
            Out::H(x) => {
                lb.arg(x);
                drv("launch", unsafe { lb.launch(lc) }).map(|_| ())
            }
            Out::F(x) => {
                lb.arg(x);
                drv("launch", unsafe { lb.launch(lc) }).map(|_| ())
            }
        }
    };

    // cuBLAS: column-major C^T (N x M, ld N) = op(B) (N x K) * op(A) (K x M)
    let handle = blas::create_handle().map_err(|e| err("cuBLAS error", format!("create handle: {e:?}")))?;
    unsafe { blas::set_stream(handle, stream.cu_stream() as _) }.map_err(|e| err("cuBLAS error", format!("{e:?}")))?;
    let (op_b, ldb) = match cfg.b_major {
        Major::K => (blas_sys::cublasOperation_t::CUBLAS_OP_T, cfg.k),
        Major::MN => (blas_sys::cublasOperation_t::CUBLAS_OP_N, cfg.n),
    };
    let (op_a, lda) = match cfg.a_major {
        Major::K => (blas_sys::cublasOperation_t::CUBLAS_OP_N, cfg.k),
        Major::MN => (blas_sys::cublasOperation_t::CUBLAS_OP_T, cfg.m),
    };
    let alpha = 1.0f32;
    let beta = 0.0f32;
    let (pa, _ga) = a.device_ptr(&stream);
    let (pb, _gb) = b.device_ptr(&stream);
    let cublas_run = |c: &mut Out| -> R<()> {
        let pc = c.ptr(&stream);
        unsafe {
            blas::gemm_ex(
                handle,
                op_b,
                op_a,
                cfg.n as i32,
                cfg.m as i32,
                cfg.k as i32,
                &alpha as *const f32 as *const _,
                pb as *const _,
                blas_type(cfg.dtype),
                ldb as i32,
                pa as *const _,
                blas_type(cfg.dtype),
                lda as i32,
                &beta as *const f32 as *const _,
                pc as *mut _,
                blas_type(cfg.out),
                cfg.n as i32,
                blas_sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
                blas_sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        }
        .map_err(|e| err("cuBLAS error", format!("gemm: {e:?}")))
    };

    // correctness first
    launch(&mut c)?;
    drv("kernel", stream.synchronize())?;
    cublas_run(&mut cref)?;
    drv("cuBLAS", stream.synchronize())?;
    let got = c.host(&stream, cfg.out)?;
    let want = cref.host(&stream, cfg.out)?;
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        if !g.is_finite() {
            return Err(err(
                "gemm check failed",
                format!("{}: C({}, {}) is {g} (not written, or NaN/Inf)", cfg.describe, i / n, i % n),
            ));
        }
        if !w.is_finite() {
            return Err(err("gemm check failed", format!("cuBLAS gave {w} at ({}, {})", i / n, i % n)));
        }
        num += (g - w) * (g - w);
        den += w * w;
    }
    let rel = if den > 0.0 { (num / den).sqrt() } else { num.sqrt() };
    if !(rel <= tolerance(cfg.out)) {
        return Err(err(
            "gemm check failed",
            format!("{}: relative error {rel:.3e} against cuBLAS exceeds {:.0e}", cfg.describe, tolerance(cfg.out)),
        ));
    }

    // an independent check: sampled elements against a float64 product on the host
    let samples = (m * n).min(512);
    let (mut num64, mut den64) = (0.0f64, 0.0f64);
    for s in 0..samples {
        let idx = if m * n <= 512 { s } else { (s as u64 * 2654435761u64 % (m * n) as u64) as usize };
        let (i, j) = (idx / n, idx % n);
        let mut acc = 0.0f64;
        for kk in 0..k {
            let av = match cfg.a_major {
                Major::K => ah[i * k + kk],
                Major::MN => ah[i + kk * m],
            };
            let bv = match cfg.b_major {
                Major::K => bh[j * k + kk],
                Major::MN => bh[j + kk * n],
            };
            acc += from_bits(cfg.dtype, av) * from_bits(cfg.dtype, bv);
        }
        num64 += (got[idx] - acc) * (got[idx] - acc);
        den64 += acc * acc;
    }
    let ref64 = if den64 > 0.0 { (num64 / den64).sqrt() } else { num64.sqrt() };
    if !(ref64 <= tolerance(cfg.out)) {
        return Err(err(
            "gemm check failed",
            format!("{}: relative error {ref64:.3e} against a float64 reference ({samples} sampled elements) exceeds {:.0e}", cfg.describe, tolerance(cfg.out)),
        ));
    }

    // timing: CUDA events around each run after warm-up, median
    let flags = Some(drv_sys::CUevent_flags::CU_EVENT_DEFAULT);
    // warm-up both, then alternate ours and cuBLAS so both see the same clocks and heat
    for _ in 0..cfg.warmup {
        launch(&mut c)?;
        cublas_run(&mut cref)?;
    }
    let e0 = drv("event", ctx.new_event(flags))?;
    let e1 = drv("event", ctx.new_event(flags))?;
    let timed = |f: &mut dyn FnMut() -> R<()>| -> R<f64> {
        drv("event", e0.record(&stream))?;
        f()?;
        drv("event", e1.record(&stream))?;
        drv("event", e1.synchronize())?;
        Ok(drv("event", e0.elapsed_ms(&e1))? as f64)
    };
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..cfg.iters {
        ours.push(timed(&mut || launch(&mut c))?);
        theirs.push(timed(&mut || cublas_run(&mut cref))?);
    }
    let (ms, cublas_ms) = (median(ours), median(theirs));
    // the timed runs must have produced the same C (a difference means a race)
    drv("synchronize", stream.synchronize())?;
    let again = c.host(&stream, cfg.out)?;
    if let Some(i) = again.iter().zip(&got).position(|(x, y)| x.to_bits() != y.to_bits()) {
        return Err(err(
            "gemm check failed",
            format!(
                "{}: C({}, {}) changed between runs ({} then {}): a race in the kernel",
                cfg.describe,
                i / n,
                i % n,
                got[i],
                again[i]
            ),
        ));
    }
    drv("synchronize", stream.synchronize())?;
    let _ = unsafe { blas::destroy_handle(handle) };
    let tf = |ms: f64| cfg.flops / (ms * 1e-3) / 1e12;
    Ok(Measured {
        ms,
        tflops: tf(ms),
        cublas_ms,
        cublas_tflops: tf(cublas_ms),
        rel_err: rel,
        ref64_err: ref64,
        ref64_samples: samples,
        resources,
    })
}
