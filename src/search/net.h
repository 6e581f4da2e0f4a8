/* net.h — a learned evaluation for any game with a NetFeatures hook
 * (game.h): sparse one-hot inputs from each player's view, one hidden
 * layer shared by the two views, clipped ReLU, one output.
 *
 *   acc_p = b1 + sum of w1[f] over the active features f of player p
 *   y     = b2 + w2[0..H) . crelu(acc_mover) + w2[H..2H) . crelu(acc_other)
 *   eval  = NET_OUT_SCALE * y, from the mover's view
 *           (+ the game's own eval() when the net says NET_ADDS_EVAL:
 *            a residual net, trained to correct the hand evaluation)
 *
 * with crelu(x) = min(max(x, 0), 1). The trainer (src/tools/train.c)
 * works on the float form (NetFloat); the search on the quantised one
 * (Net): w1, b1 as int16 scaled by NET_QA, w2 as int16 scaled by NET_QB,
 * b2 as int32 scaled by NET_QA * NET_QB, integer arithmetic throughout
 * (the accumulators are int16). Quantising clips the weights so that no
 * sum overflows (net_clip_w1()).
 *
 * The file (little-endian):
 *   "PLYNET\r\n"  magic, 8 bytes
 *   u32 version (1 or 2), u32 ninputs, u32 hidden, u32 out_scale
 *   u32 flags            (version 2 only; version 1 means 0): NET_ADDS_EVAL
 *   char game[32], char features[32]   (NUL-padded names)
 *   i16 w1[ninputs * hidden] (row by row: input f's hidden weights)
 *   i16 b1[hidden], i16 w2[2 * hidden], i32 b2
 *   u32 checksum: FNV-1a (32 bits) of every byte before it
 * Loading refuses another game or feature set, other sizes, a short or
 * long file and a bad checksum, with a message saying which. */
#ifndef PLY_NET_H
#define PLY_NET_H

#include <stddef.h>
#include <stdint.h>

#include "../core/game.h"

enum {
    NET_QA = 255, NET_QB = 1024, NET_OUT_SCALE = 400, NET_VERSION = 2,
    NET_MAX_HIDDEN = 512, NET_NAME_LEN = 32,
};

/* Net flags (the file's, version 2). */
enum { NET_ADDS_EVAL = 1u << 0 };

/* Clip bounds of the output layer's weights and bias (float units). */
#define NET_W2_CLIP 8.0f
#define NET_B2_CLIP 4.0f

typedef struct NetFloat {
    int ninputs, hidden;
    unsigned flags;         /* NET_ADDS_EVAL */
    float *w1, *b1, *w2;    /* ninputs * hidden, hidden, 2 * hidden */
    float b2;
} NetFloat;

typedef struct Net {
    const GameVtbl *g;
    const NetFeatures *nf;
    int ninputs, hidden;
    unsigned flags;         /* NET_ADDS_EVAL: the game's eval() is added */
    int16_t *w1, *b1, *w2;
    int32_t b2;
} Net;

/* Sorts a feature list in place (ascending). */
void net_sort_features(uint16_t *f, int n);

int netf_alloc(NetFloat *n, int ninputs, int hidden);
void netf_free(NetFloat *n);
/* Small random weights (seeded). */
void netf_randomize(NetFloat *n, uint64_t seed);
/* The float forward pass: features of the mover (fm, nm) and the other
 * player (fo, no); the output y (eval / NET_OUT_SCALE). acc (2 * hidden
 * floats) receives the two accumulators before clipping when not NULL. */
float netf_forward(const NetFloat *n, const uint16_t *fm, int nm,
                   const uint16_t *fo, int no, float *acc);
/* The bound |w1|, |b1| must keep for max_active features (int16 sums). */
float net_clip_w1(int max_active);
/* Clips n's weights to what quantisation keeps (w1, b1: net_clip_w1;
 * w2: +-8, b2: +-4). */
void netf_clip(NetFloat *n, int max_active);

/* Quantises f into q for game g (which has a net hook whose ninputs
 * equals f's). 0, or -1 when out of memory. */
int net_quantise(const NetFloat *f, const GameVtbl *g, Net *q, PlyError *err);
void net_free(Net *n);

int net_save(const Net *n, const char *path, PlyError *err);
/* Reads a net file (len bytes at buf) for game g. -1 with a message. */
int net_load_mem(Net *n, const GameVtbl *g, const unsigned char *buf,
                 size_t len, PlyError *err);
int net_load(Net *n, const GameVtbl *g, const char *path, PlyError *err);

/* The quantised net's value of st from the mover's view (EVAL units,
 * not clamped), from scratch. */
int net_eval_full(const Net *n, const void *st);
/* The same with the int16 weights read as floats (no saturation, no
 * integer rounding), for tests. */
double net_eval_dequantised(const Net *n, const void *st);

/* Accumulators beside a search stack: one slot per ply, each holding the
 * features and accumulators of the last position evaluated there. A
 * position at slot s starts from slot s (a sibling) or s - 1 (its
 * parent), whichever differs by fewer features, and adds and removes
 * those; it is exact whatever the slots held before. The features are
 * kept as bit sets over the inputs, so that the difference of two
 * positions is an exclusive or (a game may write the set directly:
 * NetFeatures.feature_bits). */
typedef struct NetStack {
    const Net *net;
    int slots, maxf;
    int words;              /* of a feature set: (ninputs + 63) / 64 */
    int16_t *acc;           /* slots * 2 * hidden */
    uint64_t *bits;         /* slots * 2 * words: each one's features */
    uint8_t *full;          /* slots * 2; 0: empty */
    uint16_t *tmp;          /* maxf */
    uint64_t *cur;          /* words */
    uint64_t *key;          /* slots: the hash of the position held */
    uint8_t *keyed;         /* slots: 1 when key is known */
    long deltas, scans;     /* evaluations by a move's rows / by a scan */
} NetStack;

int net_stack_init(NetStack *s, const Net *n, int slots);
void net_stack_free(NetStack *s);
/* The value of st, evaluated in slot `slot` (0..slots-1), from the
 * mover's view (`mover`: 0 or 1). */
int net_stack_eval(NetStack *s, int slot, const void *st, int mover);
/* The same, where more is known: key is st's hash, and st was reached
 * by the move m from parent (hash pkey), or parent is NULL. When slot - 1
 * holds parent (by its hash) and the features have a feature_delta
 * hook, st's accumulators are the parent's moved by m's rows alone (no
 * scan of st); otherwise as net_stack_eval. */
int net_stack_eval_move(NetStack *s, int slot, const void *st, uint64_t key,
                        int mover, const void *parent, uint64_t pkey,
                        Move m);
/* Whether slot `slot` holds the position with hash key (by a keyed
 * evaluation or net_stack_move). */
int net_stack_holds(const NetStack *s, int slot, uint64_t key);
/* Slot `slot` made to hold the position (hash key) that the move m leads
 * to from parent (hash pkey), which slot - 1 holds, by m's rows alone,
 * without evaluating it; 0, or -1 (nothing changed) when slot - 1 does
 * not hold parent or the game has no feature_delta for m. */
int net_stack_move(NetStack *s, int slot, const void *parent, uint64_t pkey,
                   Move m, uint64_t key);

#endif
