/* The learned pattern evaluation (plies.engine.patterns): the predicted final disc difference for the side to
 * move, from weights in their expanded form (expand_weights: float32, n_phases rows of row_len =
 * RAW_SIZE + 6, C-contiguous). */
#ifndef PLIES_PATTERNS_H
#define PLIES_PATTERNS_H

#include "bitboard.h"

typedef struct {
    const float *w;   /* n_phases x row_len */
    i64 n_phases;
    i64 row_len;
} Weights;

/* true when W holds learned weights (a (1, 1) dummy stands for none, as NO_WEIGHTS in Python) */
static inline int has_weights(const Weights *W) { return W->n_phases > 1; }

double evaluate_patterns(u64 P, u64 O, const Weights *W);

#endif
