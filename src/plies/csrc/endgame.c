/* endgame kernels */
#include "bitboard.h"
