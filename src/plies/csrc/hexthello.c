/* hexthello kernels */
#include "bitboard.h"
