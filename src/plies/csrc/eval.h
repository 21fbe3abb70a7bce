/* Evaluations of 8x8 positions from the side to move's view (plies.engine.eval). */
#ifndef PLIES_EVAL_H
#define PLIES_EVAL_H

#include "bitboard.h"
#include "patterns.h"

enum { EVAL_HANDMADE = 0, EVAL_DISCS = 1, EVAL_DOC000 = 2, EVAL_DOC001 = 3, EVAL_DOC004 = 4, EVAL_WEIGHTED = 5,
       EVAL_LEARNED = 6 };

/* Discs of P that can never be flipped (a sound under-estimate): exact on the edges, grown inwards. */
u64 stable_discs(u64 P, u64 O);
/* Stable discs of P, the growth stopped once it has found `need`: at least `need` of them exactly when
 * stable_discs has at least `need`. */
u64 stable_discs_enough(u64 P, u64 O, i64 need);
/* Hand-made evaluation (integer-valued, roughly 10 units per disc of advantage). */
i64 evaluate_default(u64 P, u64 O);
/* Value of a position that is not over with evaluation eval_id (W: read by EVAL_LEARNED only). */
double evaluate(u64 P, u64 O, int eval_id, const Weights *W);

#endif
