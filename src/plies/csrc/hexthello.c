/* HexThello kernels: move generation, make/unmake, the evaluations (document 004's, the engine's classic one and
 * its learned one), document 004's minimax/alpha-beta and the engine's PVS with a transposition table and a
 * history table (parallel.c runs it on several threads).
 *
 * A position is an int8 array of 17 x 17 = 289 cells: the course's 15x15 array with a one-cell wall around it,
 * so a step in any of the six directions from a board cell stays inside the array and stops at a wall.  Cell
 * values: 0 empty, 1 black, 2 white, 3 wall/off the hexagon.  Padded index p = (i+1)*17 + (j+1).  Directions
 * (-1,0) (-1,+1) (0,-1) (0,+1) (+1,-1) (+1,0) are the offsets -17, -16, -1, +1, +16, +17.
 *
 * The square tables, the cell classes and edge lines of the learned evaluation and the Zobrist keys are built
 * by plies.hexsearch.kernels (the keys from a seeded numpy generator) and handed over once, at import, by
 * hex_init. */
#include <stdint.h>
#include <string.h>

#define HEX_SIZE 15
#define HEX_RADIUS 7
#define HEX_W (HEX_SIZE + 2)
#define HEX_N (HEX_W * HEX_W)
#define HEX_NCELLS 169
#define HEX_EMPTY 0
#define HEX_BLACK 1
#define HEX_WHITE 2
#define HEX_WALL 3
#define HEX_WIN 1000000LL
#define HEX_INF 2000000000LL
#define HEX_MAX_MOVES HEX_NCELLS
/* Flipped cells of one line path: at most 6 * 13 per move, at most 169 moves in a game. */
#define HEX_STACK (6 * 13 * (HEX_NCELLS + 1))
#define HEX_EXACT 0
#define HEX_LOWER 1
#define HEX_UPPER 2

/* The learned evaluation (plies.hexsearch.learned): per phase of HEX_PHASE_WIDTH empties, a row of int32 weights
 * in 1/HEX_EVAL_SCALE discs: HEX_DENSE dense features, then my discs and the opponent's per cell class
 * (HEX_MAX_CLASSES each), then one table of 3^10 configurations shared by the six edge lines (an edge's 8 cells
 * and the inner cell beside each of its corners; digits 0 empty or hole, 1 mine, 2 the opponent's). */
#define HEX_PHASES 12
#define HEX_PHASE_WIDTH 14
#define HEX_EVAL_SCALE 16
#define HEX_DENSE 8 /* bias, my mobility, its, my potential mobility, its, parity, my wipe-out guard, its */
/* The fixed wipe-out guard both evaluations add (hex_guard): HEX_GUARD units per unit of the opponent's
 * max(0, HEX_GUARD_DISCS - discs)^2 minus one's own, where the opponent's discs are counted after the greediest
 * move of the side to move.  The self-play games of the fit hardly hold a wipe-out, so the fitted guard
 * weights cannot learn one. */
#define HEX_GUARD 40
#define HEX_GUARD_DISCS 10
#define HEX_MAX_CLASSES 32
#define HEX_EDGES 6
#define HEX_EDGE_LEN 10
#define HEX_EDGE_CONFIGS 59049
#define HEX_NFEAT (HEX_DENSE + 2 * HEX_MAX_CLASSES)
#define HEX_ROW (HEX_NFEAT + HEX_EDGE_CONFIGS)
#define HEX_LOCKS 4096 /* bucket locks of a transposition table shared by threads */

static const int hex_offsets[6] = {-HEX_W, -HEX_W + 1, -1, 1, HEX_W - 1, HEX_W};
static int8_t hex_class[HEX_N];                    /* cell class of the learned evaluation */
static int16_t hex_edge[HEX_EDGES][HEX_EDGE_LEN]; /* the edge lines' cells */
static const int8_t hex_digit[3][4] = {{0, 0, 0, 0}, {0, 1, 2, 0}, {0, 2, 1, 0}}; /* [me][cell value] */
static int16_t hex_cells[HEX_NCELLS]; /* the board cells in row-major order (the course's scan order) */
static int hex_ready;                  /* hex_init has run */
static int64_t hex_doc004_table[HEX_N];
static int64_t hex_engine_table[HEX_N];
static uint64_t hex_zobrist[HEX_N][3];
static uint64_t hex_zobrist_side;

static void hex_cells_init(void) {
    int n = 0;
    for (int i = 0; i < HEX_SIZE; i++)
        for (int j = 0; j < HEX_SIZE; j++)
            if (HEX_RADIUS <= i + j && i + j <= 3 * HEX_RADIUS) hex_cells[n++] = (int16_t)((i + 1) * HEX_W + j + 1);
}

/* A search's state: the board, the stack of flipped cells, the counters and (for the engine) the tables. */
typedef struct {
    int8_t board[HEX_N];
    int16_t stack[HEX_STACK];
    int64_t nodes;
    int64_t limit;
    int stop;
    int prune;
    int eval_id;              /* the engine's evaluation: 0 classic, 1 learned */
    const int32_t *weights;   /* learned: HEX_PHASES rows of HEX_ROW */
    int64_t *ctl;             /* NULL or control words: ctl[CTL_STOP] set from any thread stops the search */
    Busy *busy;               /* shared by the threads of a parallel search (search.h), NULL with one */
    uint8_t *locks;           /* HEX_LOCKS bucket locks while threads share the table, else NULL */
    /* the engine's tables (caller's arrays) */
    int64_t *tt_key;
    int32_t *tt_val;
    int16_t *tt_depth;
    int8_t *tt_flag;
    int16_t *tt_move;
    int64_t *history; /* [3][HEX_N] */
    uint64_t tt_mask;
} HexSearch;

/* --- rules -------------------------------------------------------------------------------------------- */

static inline int hex_is_legal(const int8_t *board, int p, int me) {
    if (board[p] != HEX_EMPTY) return 0;
    int op = 3 - me;
    for (int d = 0; d < 6; d++) {
        int off = hex_offsets[d];
        int q = p + off;
        if (board[q] != op) continue;
        q += off;
        while (board[q] == op) q += off;
        if (board[q] == me) return 1;
    }
    return 0;
}

static inline int hex_gen_moves(const int8_t *board, int me, int16_t *out) {
    int n = 0;
    for (int k = 0; k < HEX_NCELLS; k++) {
        int p = hex_cells[k];
        if (hex_is_legal(board, p, me)) out[n++] = (int16_t)p;
    }
    return n;
}

static inline int hex_count_moves(const int8_t *board, int me) {
    int n = 0;
    for (int k = 0; k < HEX_NCELLS; k++) n += hex_is_legal(board, hex_cells[k], me);
    return n;
}

/* Place me on p and flip; the flipped cells go on the stack from sp; returns the new sp. */
static inline int hex_do_move(int8_t *board, int p, int me, int16_t *stack, int sp) {
    int op = 3 - me;
    board[p] = (int8_t)me;
    for (int d = 0; d < 6; d++) {
        int off = hex_offsets[d];
        int q = p + off;
        while (board[q] == op) q += off;
        if (board[q] == me) {
            q -= off;
            while (q != p) {
                board[q] = (int8_t)me;
                stack[sp++] = (int16_t)q;
                q -= off;
            }
        }
    }
    return sp;
}

static inline void hex_undo_move(int8_t *board, int p, int me, const int16_t *stack, int sp_before, int sp_after) {
    int8_t op = (int8_t)(3 - me);
    board[p] = HEX_EMPTY;
    for (int k = sp_before; k < sp_after; k++) board[stack[k]] = op;
}

static int hex_disc_diff(const int8_t *board, int me) {
    int op = 3 - me, d = 0;
    for (int k = 0; k < HEX_NCELLS; k++) {
        int v = board[hex_cells[k]];
        d += (v == me) - (v == op);
    }
    return d;
}

static int hex_empties(const int8_t *board) {
    int n = 0;
    for (int k = 0; k < HEX_NCELLS; k++) n += board[hex_cells[k]] == HEX_EMPTY;
    return n;
}

/* Leaves depth plies below (a forced pass is a ply, a finished game one leaf). */
static int64_t hex_perft(int8_t *board, int me, int depth, int passed, int16_t *stack, int sp) {
    if (depth == 0) return 1;
    int16_t moves[HEX_MAX_MOVES];
    int n = hex_gen_moves(board, me, moves);
    if (n == 0) {
        if (passed || hex_count_moves(board, 3 - me) == 0) return 1;
        return hex_perft(board, 3 - me, depth - 1, depth > 0, stack, sp);
    }
    if (depth == 1) return n;
    int64_t total = 0;
    for (int k = 0; k < n; k++) {
        int p = moves[k];
        int sp2 = hex_do_move(board, p, me, stack, sp);
        total += hex_perft(board, 3 - me, depth - 1, depth < 0, stack, sp2);
        hex_undo_move(board, p, me, stack, sp, sp2);
    }
    return total;
}

/* --- evaluations ---------------------------------------------------------------------------------------- */

static inline int64_t hex_floordiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

/* Document 004: 10 * discs + 5 * mobility + 3 * stability table, from me's view. */
static int64_t hex_eval_doc004(const int8_t *board, int me) {
    int op = 3 - me;
    int64_t d = 0, s = 0;
    for (int k = 0; k < HEX_NCELLS; k++) {
        int p = hex_cells[k];
        int v = board[p];
        if (v == me) {
            d++;
            s += hex_doc004_table[p];
        } else if (v == op) {
            d--;
            s -= hex_doc004_table[p];
        }
    }
    int64_t mob = hex_count_moves(board, me) - hex_count_moves(board, op);
    return 10 * d + 5 * mob + 3 * s;
}

/* What the empty cells add up to for the evaluations (me's view): moves for me and the opponent, potential
 * mobility (empty cells beside the other side's discs, once per neighbouring disc), the number of empties and
 * the most discs one move of mine flips. */
typedef struct {
    int mob_me, mob_op, pot_me, pot_op, n_empty, cap_me;
} HexEmpties;

/* Add empty cell p to *c. */
static inline void hex_empty_cell(const int8_t *board, int p, int me, HexEmpties *c) {
    int op = 3 - me;
    c->n_empty++;
    /* a disc (1 or 2, not 0 or 3) beside p?  (v ^ v >> 1) & 1 is 1 for exactly those */
    int any = 0;
#pragma GCC unroll 6
    for (int dd = 0; dd < 6; dd++) {
        int v = board[p + hex_offsets[dd]];
        any |= v ^ (v >> 1);
    }
    if (!(any & 1)) return;
    int legal_op = 0, flips = 0;
#pragma GCC unroll 6
    for (int dd = 0; dd < 6; dd++) {
        int off = hex_offsets[dd];
        int q = p + off;
        int v = board[q];
        if (v != me && v != op) continue;
        if (v == op) c->pot_me++;
        else c->pot_op++;
        if (v == me && legal_op) continue;
        int n = 1;
        q += off;
        while (board[q] == v) {
            q += off;
            n++;
        }
        if (board[q] == 3 - v) {
            if (v == op) flips += n; /* every line of mine counts: the move flips them all */
            else legal_op = 1;
        }
    }
    c->mob_me += flips > 0;
    c->mob_op += legal_op;
    if (flips > c->cap_me) c->cap_me = flips;
}

/* One side's wipe-out guard: max(0, HEX_GUARD_DISCS - discs)^2. */
static inline int64_t hex_guard_of(int64_t discs) {
    return discs < HEX_GUARD_DISCS ? (HEX_GUARD_DISCS - discs) * (HEX_GUARD_DISCS - discs) : 0;
}

/* The fixed wipe-out guard from me's view (me to move, mine and theirs discs, cap the most discs a move of mine
 * flips): my guard on my discs now, the opponent's on what it keeps after my greediest move.  Counting the
 * opponent after the capture that is coming puts both guards on the same footing, whichever side the horizon
 * falls on: a side left with few discs after the other side's greediest move is the side a wipe-out threatens,
 * and on the hexagon a greedy opponent cleans a side with a handful of discs off the board within a few plies. */
static inline int64_t hex_guard(int64_t mine, int64_t theirs, int64_t cap) {
    return HEX_GUARD * (hex_guard_of(theirs - cap) - hex_guard_of(mine));
}

/* The engine's evaluation, in one pass over the board: square weights, mobility of both sides, potential
 * mobility (empty cells beside the opponent's discs), a guard against being wiped out, and in the late game
 * more and more the disc count. */
static int64_t hex_eval_engine(const int8_t *board, int me) {
    int op = 3 - me;
    int64_t s = 0;
    int64_t mine = 0, theirs = 0;
    HexEmpties c = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < HEX_NCELLS; k++) {
        int p = hex_cells[k];
        int v = board[p];
        if (v == me) {
            mine++;
            s += hex_engine_table[p];
            continue;
        }
        if (v == op) {
            theirs++;
            s -= hex_engine_table[p];
            continue;
        }
        if (v != HEX_WALL) hex_empty_cell(board, p, me, &c); /* a hole: the course's ILLEGAL cell, never empty */
    }
    int64_t d = mine - theirs;
    if (c.mob_me == 0 && c.mob_op == 0) /* the game is over: the exact result */
        return d > 0 ? HEX_WIN + d : (d < 0 ? -HEX_WIN + d : 0);
    int64_t late = c.n_empty > 40 ? 0 : 40 - c.n_empty;
    int64_t value = 4 * s + 12 * (c.mob_me - c.mob_op) + 2 * (c.pot_me - c.pot_op) + 2 * d +
                    hex_floordiv(late * d, 4);
    return value + hex_guard(mine, theirs, c.cap_me); /* on the hexagon a wipe-out comes fast */
}

/* The learned evaluation's features of board from me's view (me to move): phase, the HEX_NFEAT dense and
 * class features and the six edge lines' configurations, and the fixed wipe-out guard (hex_guard) in *guard.
 * Returns 1 when the game is over (nobody can move), *diff then my discs minus the opponent's. */
static int hex_features(const int8_t *board, int me, int *phase, int32_t *feat, int32_t *edge, int64_t *diff,
                        int64_t *guard) {
    int op = 3 - me;
    int32_t mine = 0, theirs = 0;
    HexEmpties c = {0, 0, 0, 0, 0, 0};
    memset(feat, 0, HEX_NFEAT * sizeof(int32_t));
    int32_t *cls_me = feat + HEX_DENSE, *cls_op = feat + HEX_DENSE + HEX_MAX_CLASSES;
    for (int k = 0; k < HEX_NCELLS; k++) {
        int p = hex_cells[k];
        int v = board[p];
        if (v == me) {
            mine++;
            cls_me[hex_class[p]]++;
            continue;
        }
        if (v == op) {
            theirs++;
            cls_op[hex_class[p]]++;
            continue;
        }
        if (v != HEX_WALL) hex_empty_cell(board, p, me, &c); /* a hole: the course's ILLEGAL cell, never empty */
    }
    *diff = mine - theirs;
    *guard = hex_guard(mine, theirs, c.cap_me);
    int ph = c.n_empty / HEX_PHASE_WIDTH;
    *phase = ph < HEX_PHASES ? ph : HEX_PHASES - 1;
    int32_t g_me = (int32_t)hex_guard_of(mine), g_op = (int32_t)hex_guard_of(theirs); /* the fitted features */
    feat[0] = 1;
    feat[1] = c.mob_me;
    feat[2] = c.mob_op;
    feat[3] = c.pot_me;
    feat[4] = c.pot_op;
    feat[5] = c.n_empty & 1;
    feat[6] = g_me;
    feat[7] = g_op;
    const int8_t *dg = hex_digit[me];
    for (int e = 0; e < HEX_EDGES; e++) {
        int32_t idx = 0;
#pragma GCC unroll 10
        for (int c = HEX_EDGE_LEN - 1; c >= 0; c--) idx = 3 * idx + dg[board[hex_edge[e][c]]];
        edge[e] = idx;
    }
    return c.mob_me == 0 && c.mob_op == 0;
}

/* The learned evaluation from me's view, in 1/HEX_EVAL_SCALE discs (a finished game: the exact result): the
 * weights' sum plus the fixed wipe-out guard. */
static int64_t hex_eval_learned(const int8_t *board, int me, const int32_t *weights) {
    int phase;
    int32_t feat[HEX_NFEAT], edge[HEX_EDGES];
    int64_t d, guard;
    if (hex_features(board, me, &phase, feat, edge, &d, &guard))
        return d > 0 ? HEX_WIN + d : (d < 0 ? -HEX_WIN + d : 0);
    const int32_t *w = weights + (int64_t)phase * HEX_ROW;
    int64_t v = 0;
    for (int i = 0; i < HEX_NFEAT; i++) v += (int64_t)feat[i] * w[i];
    const int32_t *we = w + HEX_NFEAT;
    for (int e = 0; e < HEX_EDGES; e++) v += we[edge[e]];
    return v + guard;
}

static inline int64_t hex_eval_search(const HexSearch *S, int me) {
    return S->eval_id ? hex_eval_learned(S->board, me, S->weights) : hex_eval_engine(S->board, me);
}

/* True when either side has three discs or fewer. */
static int hex_few_discs(const int8_t *board) {
    int b = 0, w = 0;
    for (int k = 0; k < HEX_NCELLS; k++) {
        int v = board[hex_cells[k]];
        b += v == HEX_BLACK;
        w += v == HEX_WHITE;
    }
    return b <= 3 || w <= 3;
}

/* --- document 004's search ------------------------------------------------------------------------------ */

/* Document 004's minimax with alpha-beta (prune off = plain minimax), value from root's view.  Moves in the
 * course's row-major scan order; a finished game or depth 0 is scored by hex_eval_doc004; a side without a
 * move passes (one ply). */
static int64_t hex_doc004_search(HexSearch *S, int me, int depth, int64_t alpha, int64_t beta, int root, int sp) {
    int8_t *board = S->board;
    S->nodes++;
    int op = 3 - me;
    if (depth == 0) return hex_eval_doc004(board, root);
    int16_t moves[HEX_MAX_MOVES];
    int n = hex_gen_moves(board, me, moves);
    if (n == 0) {
        if (hex_count_moves(board, op) == 0) return hex_eval_doc004(board, root);
        return hex_doc004_search(S, op, depth - 1, alpha, beta, root, sp);
    }
    if (me == root) {
        int64_t best = -HEX_INF;
        for (int k = 0; k < n; k++) {
            int p = moves[k];
            int sp2 = hex_do_move(board, p, me, S->stack, sp);
            int64_t v = hex_doc004_search(S, op, depth - 1, alpha, beta, root, sp2);
            hex_undo_move(board, p, me, S->stack, sp, sp2);
            if (v > best) best = v;
            if (best > alpha) alpha = best;
            if (S->prune && beta <= alpha) break;
        }
        return best;
    }
    int64_t best = HEX_INF;
    for (int k = 0; k < n; k++) {
        int p = moves[k];
        int sp2 = hex_do_move(board, p, me, S->stack, sp);
        int64_t v = hex_doc004_search(S, op, depth - 1, alpha, beta, root, sp2);
        hex_undo_move(board, p, me, S->stack, sp, sp2);
        if (v < best) best = v;
        if (best < beta) beta = best;
        if (S->prune && beta <= alpha) break;
    }
    return best;
}

/* Document 004's playMinmax: every root move searched with a full window, the last best one kept (>=).
 * Writes the padded cell (-1 for a pass) and the value; returns the nodes. */
static int64_t hex_doc004_root(HexSearch *S, int me, int depth, int *best_cell, int64_t *best_value) {
    int16_t moves[HEX_MAX_MOVES];
    int n = hex_gen_moves(S->board, me, moves);
    if (n == 0) {
        *best_cell = -1;
        *best_value = 0;
        return 1;
    }
    S->nodes = 0;
    int64_t best_v = -HEX_INF;
    int best_p = moves[0];
    for (int k = 0; k < n; k++) {
        int p = moves[k];
        int sp2 = hex_do_move(S->board, p, me, S->stack, 0);
        int64_t v = hex_doc004_search(S, 3 - me, depth - 1, -HEX_INF, HEX_INF, me, sp2);
        hex_undo_move(S->board, p, me, S->stack, 0, sp2);
        if (v >= best_v) {
            best_v = v;
            best_p = p;
        }
    }
    *best_cell = best_p;
    *best_value = best_v;
    return S->nodes;
}

/* --- the engine ----------------------------------------------------------------------------------------- */

static uint64_t hex_board_hash(const int8_t *board, int me) {
    uint64_t h = 0;
    for (int k = 0; k < HEX_NCELLS; k++) {
        int p = hex_cells[k];
        if (board[p] != HEX_WALL) h ^= hex_zobrist[p][board[p]];  /* holes are the same all game */
    }
    if (me == HEX_WHITE) h ^= hex_zobrist_side;
    return h;
}

/* Sort moves: the table move first, then by square weight plus history (insertion sort, small n). */
static void hex_order(HexSearch *S, int me, int16_t *moves, int n, int tt_move) {
    int64_t keys[HEX_MAX_MOVES];
    const int64_t *hist = S->history + (int64_t)me * HEX_N;
    for (int k = 0; k < n; k++) {
        int p = moves[k];
        keys[k] = hex_engine_table[p] * 1000 + hist[p];
        if (p == tt_move) keys[k] = (int64_t)1 << 60;
    }
    for (int a = 1; a < n; a++) {
        int64_t kp = keys[a];
        int16_t mp = moves[a];
        int b = a - 1;
        while (b >= 0 && keys[b] < kp) {
            keys[b + 1] = keys[b];
            moves[b + 1] = moves[b];
            b--;
        }
        keys[b + 1] = kp;
        moves[b + 1] = mp;
    }
}

static inline uint64_t hex_child_hash(const HexSearch *S, uint64_t h, int p, int me, int sp, int sp2) {
    int op = 3 - me;
    uint64_t h2 = h ^ hex_zobrist_side ^ hex_zobrist[p][HEX_EMPTY] ^ hex_zobrist[p][me];
    for (int q = sp; q < sp2; q++) {
        int c = S->stack[q];
        h2 ^= hex_zobrist[c][op] ^ hex_zobrist[c][me];
    }
    return h2;
}

/* The table entry of slot, copied (under its bucket lock when threads share the table): 1 when its key is h. */
typedef struct {
    int32_t val;
    int16_t depth, move;
    int8_t flag;
} HexEntry;

static inline int hex_tt_probe(const HexSearch *S, uint64_t slot, uint64_t h, HexEntry *e) {
    uint8_t *lock = S->locks ? S->locks + (slot & (HEX_LOCKS - 1)) : NULL;
    if (lock) spin_lock(lock);
    int hit = (uint64_t)S->tt_key[slot] == h;
    if (hit) {
        e->val = S->tt_val[slot];
        e->depth = S->tt_depth[slot];
        e->move = S->tt_move[slot];
        e->flag = S->tt_flag[slot];
    }
    if (lock) spin_unlock(lock);
    return hit;
}

static inline void hex_tt_store(const HexSearch *S, uint64_t slot, uint64_t h, int depth, int64_t value, int flag,
                                int move) {
    uint8_t *lock = S->locks ? S->locks + (slot & (HEX_LOCKS - 1)) : NULL;
    if (lock) spin_lock(lock);
    if (depth >= S->tt_depth[slot] || (uint64_t)S->tt_key[slot] != h) {
        S->tt_key[slot] = (int64_t)h;
        S->tt_val[slot] = (int32_t)value;
        S->tt_depth[slot] = (int16_t)depth;
        S->tt_flag[slot] = (int8_t)flag;
        S->tt_move[slot] = (int16_t)move;
    }
    if (lock) spin_unlock(lock);
}

#define HEX_DEFER_DEPTH 3 /* from this depth up, a parallel search defers the moves another thread is searching */

/* Stop when past the node limit or asked to (ctl). */
static inline int hex_should_stop(HexSearch *S) {
    if (S->nodes > S->limit || (S->ctl && atomic_get(&S->ctl[CTL_STOP], MO_RELAXED))) S->stop = 1;
    return S->stop;
}

/* Principal-variation alpha-beta (negamax form) with a transposition table, from me's view.  S->nodes counts
 * nodes; past S->limit nodes or when ctl[CTL_STOP] is set, S->stop is set and the search unwinds (the caller
 * then ignores the result).  Values are those of the depth-limited search whatever the table holds: a bound
 * is used only at its own depth or deeper, and every position's remaining depth in one search is fixed by its
 * disc count (each move adds one disc; a pass costs no depth), so a table shared by threads changes the work,
 * never the value. */
static int64_t hex_negamax(HexSearch *S, int me, int depth, int64_t alpha, int64_t beta, uint64_t h, int passed,
                           int sp) {
    int8_t *board = S->board;
    S->nodes++;
    if (hex_should_stop(S)) return 0;
    int op = 3 - me;
    uint64_t slot = h & S->tt_mask;
    int best_move = -1;
    HexEntry e;
    if (hex_tt_probe(S, slot, h, &e)) {
        best_move = e.move;
        if (e.depth >= depth) {
            int64_t v = e.val;
            if (e.flag == HEX_EXACT) return v;
            if (e.flag == HEX_LOWER && v >= beta) return v;
            if (e.flag == HEX_UPPER && v <= alpha) return v;
        }
    }
    if (depth <= 0 && (depth <= -4 || !hex_few_discs(board))) return hex_eval_search(S, me);
    int16_t moves[HEX_MAX_MOVES];
    int n = hex_gen_moves(board, me, moves);
    if (n == 0) {
        if (passed || hex_count_moves(board, op) == 0) {
            int64_t dd = hex_disc_diff(board, me);
            return dd > 0 ? HEX_WIN + dd : (dd < 0 ? -HEX_WIN + dd : 0);
        }
        return -hex_negamax(S, op, depth, -beta, -alpha, h ^ hex_zobrist_side, 1, sp);
    }
    /* at depth <= 0 here a side has three discs or fewer: it may be wiped out just past the horizon, so the
     * search looks a little further (down to depth -4) */
    hex_order(S, me, moves, n, best_move);
    int64_t alpha0 = alpha;
    int64_t best = -HEX_INF;
    best_move = moves[0];
    int16_t deferred[HEX_MAX_MOVES];
    int nd = 0;
    int defer = S->busy != NULL && depth >= HEX_DEFER_DEPTH;
    for (int pass = 0; pass < 2; pass++) {
        int count = pass == 0 ? n : nd;
        for (int t = 0; t < count; t++) {
            int k = pass == 0 ? t : deferred[t];
            int p = moves[k];
            int sp2 = hex_do_move(board, p, me, S->stack, sp);
            uint64_t h2 = hex_child_hash(S, h, p, me, sp, sp2);
            uint64_t key = 0;
            if (defer && pass == 0 && k > 0 && defer_key(S->busy, h2 | 1, &key)) {
                hex_undo_move(board, p, me, S->stack, sp, sp2);
                deferred[nd++] = (int16_t)k;
                continue;
            }
            int64_t v;
            if (k == 0) {
                v = -hex_negamax(S, op, depth - 1, -beta, -alpha, h2, 0, sp2);
            } else {
                v = -hex_negamax(S, op, depth - 1, -alpha - 1, -alpha, h2, 0, sp2);
                if (alpha < v && v < beta && !S->stop) v = -hex_negamax(S, op, depth - 1, -beta, -v, h2, 0, sp2);
            }
            if (key) busy_leave(S->busy, key);
            hex_undo_move(board, p, me, S->stack, sp, sp2);
            if (S->stop) return 0;
            if (v > best) {
                best = v;
                best_move = p;
            }
            if (v > alpha) alpha = v;
            if (alpha >= beta) {
                S->history[(int64_t)me * HEX_N + p] += (int64_t)depth * depth;
                goto done;
            }
        }
    }
done:;
    int flag = HEX_EXACT;
    if (best <= alpha0) flag = HEX_UPPER;
    else if (best >= beta) flag = HEX_LOWER;
    hex_tt_store(S, slot, h, depth, best, flag, best_move);
    return best;
}

/* One iteration at depth: writes the best padded cell (-1 to pass) and its value; returns 1 when the search was
 * stopped (node limit or ctl).  first (a cell or -1) is searched first: the previous iteration's best move.
 * S->nodes holds the nodes. */
static int hex_root_search(HexSearch *S, int me, int depth, int first, int *best_cell, int64_t *best_value) {
    int8_t *board = S->board;
    int16_t moves[HEX_MAX_MOVES];
    S->nodes = 0;
    S->stop = 0;
    int n = hex_gen_moves(board, me, moves);
    if (n == 0) {
        *best_cell = -1;
        *best_value = 0;
        S->nodes = 1;
        return 0;
    }
    int op = 3 - me;
    uint64_t h = hex_board_hash(board, me);
    hex_order(S, me, moves, n, first);
    int64_t alpha = -HEX_INF, beta = HEX_INF, best = -HEX_INF;
    int best_p = moves[0];
    for (int k = 0; k < n; k++) {
        int p = moves[k];
        int sp2 = hex_do_move(board, p, me, S->stack, 0);
        uint64_t h2 = hex_child_hash(S, h, p, me, 0, sp2);
        int64_t v;
        if (k == 0) {
            v = -hex_negamax(S, op, depth - 1, -beta, -alpha, h2, 0, sp2);
        } else {
            v = -hex_negamax(S, op, depth - 1, -alpha - 1, -alpha, h2, 0, sp2);
            if (v > alpha && !S->stop) v = -hex_negamax(S, op, depth - 1, -beta, -alpha, h2, 0, sp2);
        }
        hex_undo_move(board, p, me, S->stack, 0, sp2);
        if (S->stop) {
            *best_cell = best_p;
            *best_value = best;
            return 1;
        }
        if (v > best) {
            best = v;
            best_p = p;
        }
        if (v > alpha) alpha = v;
    }
    *best_cell = best_p;
    *best_value = best;
    return 0;
}
