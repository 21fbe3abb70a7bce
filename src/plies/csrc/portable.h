/* Portability: everything in the core that differs between compilers and systems, in one place.
 *
 * Two paths.  With GCC or Clang (PLIES_GNU) the core uses what it always used: vector extensions for the
 * bitboards' four line directions, __builtin_* bit counts, __atomic builtins and, for x86-64, the CPU checks of
 * __builtin_cpu_supports.  Anywhere else (MSVC), or when PLIES_PORTABLE is defined, the plain-C path: the same
 * algorithms lane by lane in scalar code, bit counts in plain C (or the compiler's intrinsics), C11 atomics.
 * The plain-C path is ISO C11: it builds with `-std=c11 -pedantic -Werror -DPLIES_PORTABLE` (tools/cross_check.sh
 * and tests/engine/test_portable.py check it).  Threads are POSIX threads, or Windows threads on Windows.
 */
#ifndef PLIES_PORTABLE_H
#define PLIES_PORTABLE_H

#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* nanosleep, sigaction, pthreads under -std=c11 (Python.h defines it too) */
#endif

#include <stdint.h>
#include <stdlib.h>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(PLIES_PORTABLE)
#define PLIES_GNU 1
#else
#define PLIES_GNU 0
#endif

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#define PLIES_X86 1
#else
#define PLIES_X86 0
#endif

#if !PLIES_GNU && defined(_MSC_VER)
#include <intrin.h>
#endif

/* --- bits ---------------------------------------------------------------------------------------------------- */

#if PLIES_GNU
static inline int bit_count(uint64_t x) { return __builtin_popcountll(x); }
static inline int bit_first(uint64_t x) { return __builtin_ctzll(x); } /* x != 0 */
static inline uint64_t bytes_reversed(uint64_t x) { return __builtin_bswap64(x); }
#define prefetch(p) __builtin_prefetch(p)
#else
static inline int bit_count(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
static inline int bit_first(uint64_t x) {
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
static inline uint64_t bytes_reversed(uint64_t x) { return _byteswap_uint64(x); }
#else
static inline int bit_first(uint64_t x) { /* x != 0: the lowest bit's place by a de Bruijn sequence */
    static const int8_t INDEX[64] = {
        0,  1,  48, 2,  57, 49, 28, 3,  61, 58, 50, 42, 38, 29, 17, 4,  62, 55, 59, 36, 53, 51, 43, 22, 45, 39,
        33, 30, 24, 18, 12, 5,  63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11, 46, 26, 40, 15,
        34, 20, 31, 10, 25, 14, 19, 9,  13, 8,  7,  6};
    return INDEX[((x & (0 - x)) * 0x03F79D71B4CB0A89ULL) >> 58];
}
static inline uint64_t bytes_reversed(uint64_t x) {
    x = ((x >> 8) & 0x00FF00FF00FF00FFULL) | ((x & 0x00FF00FF00FF00FFULL) << 8);
    x = ((x >> 16) & 0x0000FFFF0000FFFFULL) | ((x & 0x0000FFFF0000FFFFULL) << 16);
    return (x >> 32) | (x << 32);
}
#endif
#define prefetch(p) ((void)(p))
#endif

/* --- atomics (on plain integers and pointers shared between threads) ------------------------------------------ */

#if PLIES_GNU
#define MO_RELAXED __ATOMIC_RELAXED
#define MO_ACQUIRE __ATOMIC_ACQUIRE
#define MO_RELEASE __ATOMIC_RELEASE
#define MO_ACQ_REL __ATOMIC_ACQ_REL
#define atomic_get(p, mo) __atomic_load_n(p, mo)
#define atomic_set(p, v, mo) __atomic_store_n(p, v, mo)
#define atomic_add(p, v, mo) ((void)__atomic_add_fetch(p, v, mo)) /* statements: no value */
#define atomic_sub(p, v, mo) ((void)__atomic_sub_fetch(p, v, mo))
#define atomic_swap_if(p, expected, desired, mo, mo_fail) \
    __atomic_compare_exchange_n(p, expected, desired, 0, mo, mo_fail)
#define atomic_swap_ptr_if(p, expected, desired, mo, mo_fail) \
    __atomic_compare_exchange_n(p, expected, desired, 0, mo, mo_fail)
#define atomic_take_flag(p) __atomic_test_and_set(p, __ATOMIC_ACQUIRE) /* a byte: 1 when it was set */
#define atomic_drop_flag(p) __atomic_clear(p, __ATOMIC_RELEASE)
#if PLIES_X86
#define cpu_relax() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define cpu_relax() __asm__ __volatile__("yield")
#else
#define cpu_relax() ((void)0)
#endif
#else
/* C11 atomics on the plain objects: each is viewed as its _Atomic twin (the same size and representation for
 * these lock-free types on every compiler plies builds with; MSVC needs /experimental:c11atomics). */
#include <stdatomic.h>
#define MO_RELAXED memory_order_relaxed
#define MO_ACQUIRE memory_order_acquire
#define MO_RELEASE memory_order_release
#define MO_ACQ_REL memory_order_acq_rel
#define ATOMIC_VIEW_(p)                                                                                        \
    _Generic((p), int *: (_Atomic int *)(p), const int *: (const _Atomic int *)(p),                            \
             int64_t *: (_Atomic int64_t *)(p), const int64_t *: (const _Atomic int64_t *)(p),                 \
             uint64_t *: (_Atomic uint64_t *)(p), uint8_t *: (_Atomic uint8_t *)(p),                            \
             default: (_Atomic(void *) *)(void *)(p))
#define atomic_get(p, mo) atomic_load_explicit(ATOMIC_VIEW_(p), mo)
#define atomic_set(p, v, mo) atomic_store_explicit(ATOMIC_VIEW_(p), v, mo)
#define atomic_add(p, v, mo) ((void)atomic_fetch_add_explicit(ATOMIC_VIEW_(p), v, mo))
#define atomic_sub(p, v, mo) ((void)atomic_fetch_sub_explicit(ATOMIC_VIEW_(p), v, mo))
#define atomic_swap_if(p, expected, desired, mo, mo_fail)                                                      \
    atomic_compare_exchange_strong_explicit(ATOMIC_VIEW_(p), expected, desired, mo, mo_fail)
#define atomic_swap_ptr_if(p, expected, desired, mo, mo_fail)                                                  \
    atomic_compare_exchange_strong_explicit((_Atomic(void *) *)(void *)(p), (void **)(void *)(expected),       \
                                            (void *)(desired), mo, mo_fail)
#define atomic_take_flag(p) atomic_exchange_explicit((_Atomic uint8_t *)(p), 1, memory_order_acquire)
#define atomic_drop_flag(p) atomic_store_explicit((_Atomic uint8_t *)(p), 0, memory_order_release)
#if defined(_MSC_VER) && PLIES_X86
#define cpu_relax() _mm_pause()
#else
#define cpu_relax() ((void)0)
#endif
#endif

/* --- memory of the search threads: Python's allocator inside the module, the C library's without Python --- */

#if defined(Py_PYTHON_H)
#define core_malloc PyMem_RawMalloc
#define core_free PyMem_RawFree
#else
#define core_malloc malloc
#define core_free free
#endif

/* --- threads ------------------------------------------------------------------------------------------------- */

typedef void *(*thread_main)(void *);

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <process.h>

typedef HANDLE thread_id;

typedef struct {
    thread_main main;
    void *arg;
} ThreadStart_;

static unsigned __stdcall thread_trampoline_(void *p) {
    ThreadStart_ start = *(ThreadStart_ *)p;
    free(p);
    start.main(start.arg);
    return 0;
}

/* 0 when the thread runs */
static int thread_start(thread_id *t, thread_main main, void *arg) {
    ThreadStart_ *p = (ThreadStart_ *)malloc(sizeof *p);
    if (!p) return -1;
    p->main = main;
    p->arg = arg;
    uintptr_t h = _beginthreadex(NULL, 0, thread_trampoline_, p, 0, NULL);
    if (!h) {
        free(p);
        return -1;
    }
    *t = (HANDLE)h;
    return 0;
}

static void thread_join(thread_id t) {
    WaitForSingleObject(t, INFINITE);
    CloseHandle(t);
}

/* A short pause of a waiting thread (gives the core to the threads it waits for). */
static void thread_nap(void) { Sleep(0); }
#else
#include <pthread.h>
#include <time.h>

typedef pthread_t thread_id;

static int thread_start(thread_id *t, thread_main main, void *arg) { return pthread_create(t, NULL, main, arg); }
static void thread_join(thread_id t) { pthread_join(t, NULL); }
static void thread_nap(void) {
    struct timespec t = {0, 20000};
    nanosleep(&t, NULL);
}
#endif

#endif
