/* Transposition table: full-key check, lower/upper bounds, best move, two-entry buckets.
 *
 * The entries live in a numpy record array owned by Python (plies.engine.hashtable.HashTable, dtype ENTRY with
 * align=True: the same layout as Entry).  Each bucket has two entries: the first keeps the deepest (or
 * newest-search) result, the second is always replaced.  Depths of 64 and more are the endgame solver's
 * selective results (64 + empties): they rank by their empties.  Keys are the full (P, O) pair, so a hit is
 * never a collision; the index is a multiplicative 64-bit hash of the pair.  An empty entry is all zeros: its
 * key (0, 0) is no position, so it never matches, and any store may take its place.
 */
#ifndef PLIES_HASHTABLE_H
#define PLIES_HASHTABLE_H

#include <math.h>
#include "bitboard.h"


typedef struct {
    u64 P, O;
    double lower, upper;
    int8_t depth, move;
    uint8_t date;
    uint8_t lock;   /* the bucket's lock, in its first entry: taken while threads share the table */
} Entry;

typedef struct {
    Entry *e;       /* 2**bits entries */
    u64 shift;      /* 64 - bits */
    uint8_t gen;    /* the current search's date */
    int shared;     /* other threads use the table too: probes and stores lock the bucket */
} TT;

/* A one-byte spin lock (uncontended: one atomic exchange); also the HexThello table's bucket locks. */
static inline void spin_lock(uint8_t *lock) {
    while (atomic_take_flag(lock))
        while (atomic_get(lock, MO_RELAXED)) cpu_relax();
}
static inline void spin_unlock(uint8_t *lock) { atomic_drop_flag(lock); }

/* A bucket's lock; only taken when the table is shared. */
static inline void tt_lock_(const TT *tt, Entry *b) {
    if (tt->shared) spin_lock(&b->lock);
}
static inline void tt_unlock_(const TT *tt, Entry *b) {
    if (tt->shared) spin_unlock(&b->lock);
}

#define NO_MOVE (-2)

/* A multiplicative 64-bit hash of the pair (its high bits index a table). */
static inline u64 tt_hash(u64 P, u64 O) {
    u64 h = (P * 0x9E3779B97F4A7C15ULL) ^ (O * 0xC2B2AE3D27D4EB4FULL);
    h ^= h >> 29;
    return h * 0x165667B19E3779F9ULL;
}

static inline i64 tt_bucket(u64 P, u64 O, u64 shift) { return (i64)(tt_hash(P, O) >> shift) & ~(i64)1; }

/* The index of the entry holding (P, O), or -1 (no copy: for one thread, or when no search runs). */
static inline i64 tt_find(const TT *tt, u64 P, u64 O) {
    i64 i = tt_bucket(P, O, tt->shift);
    Entry *b = tt->e + i;
    if (b[0].P == P && b[0].O == O && b[0].depth >= 0) return i;
    if (b[1].P == P && b[1].O == O && b[1].depth >= 0) return i + 1;
    return -1;
}

/* A copy of the entry holding (P, O) in *out (taken under the bucket's lock when the table is shared), or 0. */
static inline int tt_probe(const TT *tt, u64 P, u64 O, Entry *out) {
    Entry *b = tt->e + tt_bucket(P, O, tt->shift);
    int found = 0;
    tt_lock_(tt, b);
    if (b[0].P == P && b[0].O == O && b[0].depth >= 0) {
        *out = b[0];
        found = 1;
    } else if (b[1].P == P && b[1].O == O && b[1].depth >= 0) {
        *out = b[1];
        found = 1;
    }
    tt_unlock_(tt, b);
    return found;
}

static inline int tt_priority_(int depth) { return depth >= 0 ? (depth & 63) : depth; }

/* Record value of a search of (P, O) to depth with window (alpha, beta) and its best move. */
static inline void tt_store(const TT *tt, u64 P, u64 O, int depth, double alpha, double beta, double value,
                            int move) {
    Entry *b = tt->e + tt_bucket(P, O, tt->shift), *j;
    uint8_t gen = tt->gen;
    tt_lock_(tt, b);
    if (b[0].P == P && b[0].O == O && b[0].depth >= 0) {
        j = b;
    } else if (b[1].P == P && b[1].O == O && b[1].depth >= 0) {
        j = b + 1;
    } else if (tt_priority_(depth) >= tt_priority_(b[0].depth) || b[0].date != gen) {
        j = b;
        if (b[0].depth >= 0 && b[0].date == gen) {  /* keep the displaced deep entry */
            b[1] = b[0];
            b[1].lock = 0;
        }
        j->depth = -1;
        j->move = NO_MOVE;
    } else {
        j = b + 1;
        j->depth = -1;
        j->move = NO_MOVE;
    }
    if (j->depth != depth) {
        j->lower = -INFINITY;
        j->upper = INFINITY;
    }
    if (value <= alpha) {
        if (value < j->upper) j->upper = value;
    } else if (value >= beta) {
        if (value > j->lower) j->lower = value;
    } else {
        j->lower = value;
        j->upper = value;
    }
    if (j->lower > j->upper) {  /* inconsistent with an older search of the same depth: trust the new one */
        if (value <= alpha) j->lower = -INFINITY;
        else j->upper = INFINITY;
    }
    j->P = P;
    j->O = O;
    j->depth = (int8_t)depth;
    if (move >= 0) j->move = (int8_t)move;
    j->date = gen;
    tt_unlock_(tt, b);
}

#endif
