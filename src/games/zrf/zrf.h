/* zrf.h — what the ZRF files share: the reader's trees (reader.c), the
 * compiled game (compile.c) and the machine that runs it (vm.c, game.c).
 *
 * A ZRF file is read into s-expression trees (Node) in an arena, macros
 * expanded, one variant's forms merged over the game form, then compiled
 * into a ZGame: board links, zones, piece types and one bytecode program
 * per move template. The ZGame never changes after loading; a state names
 * it by number (ZState.gid, in the process-wide table of compiled games
 * in vm.c), so a state is a flat blob with no pointer, copied, hashed and
 * compared like a C game's. */
#ifndef PLY_ZRF_H
#define PLY_ZRF_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../../core/game.h"

/* ---- reader (reader.c) ---- */
enum { ZN_LIST, ZN_ATOM, ZN_STRING };

typedef struct ZNode {
    int type;
    int line;
    int file;               /* index into ZReader.files */
    const char *text;       /* atom: lower case; string: contents */
    const char *orig;       /* atom as written (case kept) */
    struct ZNode *kids;     /* list: first element */
    struct ZNode *next;     /* next sibling */
} ZNode;

/* Limits against hostile input. */
enum {
    ZRF_MAX_BYTES = 8 << 20,        /* one file */
    ZRF_MAX_DEPTH = 200,            /* nesting of lists */
    ZRF_MAX_NODES = 4 << 20,        /* after expansion */
    ZRF_MAX_EXPAND_DEPTH = 64,      /* macro calling macro */
    ZRF_MAX_INCLUDES = 16,
    ZRF_MAX_ARENA = 256 << 20,      /* bytes for every node and text */
};

typedef struct ZArenaBlock ZArenaBlock;

/* Reads a file by name for include (relative names already resolved);
 * returns malloc'd text or NULL with err. */
typedef char *(*ZReadFile)(const char *path, size_t *len, PlyError *err);

typedef struct ZReader {
    ZArenaBlock *blocks;
    size_t arena_used;
    long nodes;
    const char *files[ZRF_MAX_INCLUDES + 1];
    int nfiles;
    ZReadFile read_file;
    ZNode *top;             /* top-level forms after includes and macros */
    ZNode *macros;          /* (define ...) forms, newest first via next */
    int ndefines;
    PlyError *err;
} ZReader;

void zr_init(ZReader *r, ZReadFile rf, PlyError *err);
void zr_free(ZReader *r);
/* Reads text (named path for messages and includes), expands includes and
 * macros into r->top. 0 or -1 with err naming file, line and form. */
int zr_read(ZReader *r, const char *path, const char *text, size_t len);
/* "file:line" of a node. */
const char *zr_where(const ZReader *r, const ZNode *n, char *buf, size_t sz);
int zr_len(const ZNode *list);
const ZNode *zr_nth(const ZNode *list, int i);
int zr_is(const ZNode *n, const char *word);    /* atom equal (ci) */
const char *zr_head(const ZNode *n);            /* list's first atom */
void *zr_alloc(ZReader *r, size_t n);
/* Default file reader (fopen, size-limited). */
char *zr_read_path(const char *path, size_t *len, PlyError *err);

/* ---- the compiled game (compile.c) ---- */
enum {
    ZMAX_POS = 4096, ZMAX_DIRS = 64, ZMAX_TYPES = 250, ZMAX_ZONES = 128,
    ZMAX_ATTRS = 4, ZMAX_FLAGS = 32, ZMAX_TURNS = 256, ZMAX_MTYPES = 64,
    ZMAX_MOVES = 8192, ZMAX_GAME = 2000,
    ZREP_HIST = 64,         /* positions kept for the repetition goal */
    ZREP_TIMES = 3,         /* a position seen this often repeats */
    ZMAX_CAPGOALS = 4,      /* (captured ...) goals with their own types */
};

/* A piece in a cell: 0 = empty; else type+1 in bits 0-7, owner in bits
 * 8-11, attributes in bits 12-15. */
#define ZP_TYPE(v) ((int)((v) & 0xff) - 1)
#define ZP_OWNER(v) ((int)(((v) >> 8) & 0xf))
#define ZP_MAKE(t, o) ((uint16_t)(((t) + 1) | ((o) << 8)))

/* Instructions (one int32 opcode, then operands). OP_ADD copy ntypes
 * types...; OP_ADDP copy mtype ntypes types... */
enum {
    OP_END, OP_DIR, OP_POS, OP_ADD, OP_ADDP, OP_ADDCOPY, OP_FROM, OP_TO,
    OP_CASCADE, OP_CAPTURE, OP_FLIP, OP_CHOWNER, OP_CHTYPE, OP_CREATE,
    OP_VERIFY, OP_JF, OP_JMP, OP_MARK, OP_BACK, OP_GO, OP_SETFLAG,
    OP_SETPFLAG, OP_SETATTR,
};
/* A location operand: kind in the high byte, index below. */
enum { LOC_HERE = 0, LOC_DIR = 1, LOC_POS = 2, LOC_OPP = 3, LOC_MARK = 4,
       LOC_FROM = 5, LOC_TO = 6, LOC_LASTFROM = 7, LOC_LASTTO = 8 };
#define LOC(k, i) (((k) << 24) | (i))

/* Conditions. */
enum {
    C_TRUE, C_FALSE, C_NOT, C_AND, C_OR, C_EMPTY, C_FRIEND, C_ENEMY,
    C_NEUTRAL, C_PIECE, C_INZONE, C_ONBOARD, C_POSITION, C_LASTFROM,
    C_LASTTO, C_MARKED, C_ATTACKED, C_DEFENDED, C_FLAG, C_PFLAG, C_ATTR,
};
typedef struct ZCond {
    int op, arg, loc;       /* loc: LOC(...) */
    int kid, nkids;         /* C_NOT/AND/OR: indices into ZGame.conds */
    int fast;               /* vm.c: a short form of a simple test on the
                             * cursor's square (0: none) */
} ZCond;

typedef struct ZTemplate {
    int code;               /* offset into ZGame.code */
    int mtype;              /* move-type index, -1 none */
    int ptype;              /* piece type */
    int drop;               /* a drops template */
    /* vm.c: the template begins with pre_n direction steps then a verify
     * of the simple condition pre_cond (-1: no such start) */
    int pre_n, pre_dir[3], pre_cond;
    /* vm.c: 1 when its instructions neither write the board nor take or
     * change another piece (no from, to, cascade, capture, flip,
     * change-owner, change-type, create): an add of its moving piece
     * unchanged is a plain move (ZMV_PLAIN); 2 the same but it sets
     * attributes (plain when the piece is still as it was); 0 not */
    int plain;
} ZTemplate;
/* ZGame.pre_to: per template, player and start, where the opening steps
 * lead (-1 off the board). */

enum { G_STALEMATED, G_PIECES, G_TOTAL, G_ABSCONF, G_RELCONF, G_CHECKMATED,
       G_CAPTURED, G_REPETITION, G_AND, G_OR, G_NOT, G_TRUE };
typedef struct ZGoal {
    int op;
    int n;                  /* G_PIECES/G_TOTAL count */
    int types[8], ntypes;   /* -1 in ntypes 0: any type */
    int zone;               /* G_ABSCONF: zone index or -1 */
    int pos[64], npos;      /* G_ABSCONF positions; G_RELCONF dirs */
    int kid, nkids;
} ZGoal;
enum { OUT_WIN, OUT_LOSS, OUT_DRAW,
       OUT_COUNT };    /* count-condition: most pieces on the board wins */
typedef struct ZCondition {
    int outcome;            /* OUT_* */
    unsigned players;       /* bit set */
    int goal;               /* index into goals */
} ZCondition;

typedef struct ZTurn {
    int player, mtype;      /* mtype -1: any */
    int owner;              /* whose pieces the player moves (usually his
                             * own; `(Mover Owner [type])` in turn-order) */
} ZTurn;

struct Run;
struct ZcApi;

typedef struct ZGame {
    char title[128];
    int nplayers;
    char player_names[PLY_MAX_PLAYERS][32];
    int npos, ndirs;
    char (*pos_name)[24];
    /* Position names are compared ignoring case, as every ZRF word is,
     * unless the board defines two that differ only in case (a file
     * written for Dagaz, whose names are case-sensitive: gess.zrf's
     * a1..r19 and A1..R19 are two grids); then they are compared
     * exactly, in references, setup strings and move texts. */
    int pos_case;
    int16_t *link;          /* npos * ndirs, -1 none */
    int *opposite;          /* ndirs */
    char (*dir_name)[24];
    int dirmap[PLY_MAX_PLAYERS][ZMAX_DIRS];  /* symmetry */
    int ntypes;
    char type_name[ZMAX_TYPES][32];
    int type_value[ZMAX_TYPES];
    int nattrs;
    char attr_name[ZMAX_ATTRS][32];
    int attr_default[ZMAX_ATTRS];
    int nzones;
    char zone_name[ZMAX_ZONES][32];
    uint8_t *zone;          /* nzones * nplayers * npos */
    int nflags, npflags;
    char flag_name[ZMAX_FLAGS][32], pflag_name[ZMAX_FLAGS][32];
    int nmtypes;
    char mtype_name[ZMAX_MTYPES][32];
    int prio[ZMAX_MTYPES], nprio;   /* move-priorities */
    ZTurn turns[ZMAX_TURNS];
    int nturns, repeat_at;
    int32_t *code;
    int ncode, capcode;
    ZCond *conds;
    int nconds, capconds;
    ZTemplate *tmpl;
    int ntmpl, captmpl;
    int *piece_tmpl;        /* per type: first template index */
    int *piece_ntmpl;
    ZGoal *goals;
    int ngoals, capgoals;
    ZCondition conds_end[64];
    int nends;
    uint8_t end_stuck[64];  /* vm.c: conds_end[i]'s goal is false while
                             * the player to move has a move */
    int pass_turn;          /* 0 false, 1 true, 2 forced */
    int pass_partial;
    int recycle;
    int8_t seat[PLY_MAX_PLAYERS];   /* Ply's number of each player; -1 a
                             * random player (?Name): its turns are chance
                             * nodes, each legal move equally likely */
    int8_t zplayer[PLY_MAX_PLAYERS];    /* per seat, the player */
    int nseats;
    int maximal;            /* "maximal captures": only the turns that take
                             * the most enemy pieces */
    int royal_checkmated;   /* type, -1 none */
    unsigned checkmated_players;
    uint16_t *setup;        /* npos initial cells */
    uint16_t *reserve0;     /* nplayers * ntypes */
    uint8_t *limited;       /* nplayers * ntypes: an `off` count was set
                             * (else drops of that type are unlimited) */
    int has_drops;
    size_t state_size;
    int max_moves;
    uint64_t *reach;        /* per template, player, start: the squares it
                             * can emit on (NULL: unknown, try all) */
    uint64_t *reach_piece;  /* per type, player, start: their union */
    int reach_words;
    uint64_t *reach_inv;    /* per player, target: the squares a piece
                             * could reach it from (union over types) */
    int uses_attacked;      /* attacked?/defended? appear in templates */
    int uses_rep;           /* a repetition goal: states keep history */
    int capgoal[ZMAX_CAPGOALS], ncapgoals;  /* (captured ...) goals; each
                             * has its slot in ZGoal.n */
    size_t hist_off;        /* its byte offset in the state */
    size_t occ_off;         /* per player, the squares holding one of his
                             * pieces (occ_words bits a player), then per
                             * player those of his royal piece
                             * (royal_checkmated, when >= 0), kept with
                             * the cells: ZS_OCC, ZS_ROYAL */
    int occ_words;
    uint32_t id;            /* its number in the table (zvm_prepare) */
    int16_t *plink;         /* per player, plain/opposite, position and
                             * direction: the link after symmetry (-1
                             * none); built by zvm_prepare */
    const int16_t *plk[PLY_MAX_PLAYERS];    /* each player's part */
    int16_t *pre_to;        /* see ZTemplate.pre_n; NULL: not built */
    /* zcc.c: the move templates compiled to native code (zc_gen NULL:
     * the interpreter runs them); zc_status says which and why */
    void *zc_handle;
    int (*zc_gen)(struct Run *, const struct ZcApi *, const uint64_t *,
                  int, int, int, int);
    struct ZcApi *zc_api;
    /* is there a move, by the prefilters alone (zcc.h ZcAny; set with
     * zc_gen) */
    int (*zc_any)(const uint16_t *, uint64_t, uint64_t, int, int);
    int zc_tried;
    char zc_status[256];
} ZGame;

/* ---- the state (vm.c) ---- */
typedef struct ZState {
    uint32_t gid;                   /* the rules: zvm_game(gid) */
    uint64_t hash;
    int32_t ply;
    int16_t last_from, last_to;
    int16_t cont_pos, cont_type;    /* partial move: -1 none */
    uint16_t turn;                  /* index into turns */
    int8_t over;                    /* 1: game over, result[] set */
    int8_t result[PLY_MAX_PLAYERS];
    int8_t mover;                   /* who made the last ply */
    int8_t passed;                  /* the last ply was a pass under
                                     * "pass turn" forced */
    uint32_t capbits;               /* this turn captured a piece of
                                     * (captured) goal slot s of player x:
                                     * bit s * 8 + x */
    uint16_t nhist;                 /* positions recorded (repetition) */
    uint16_t cells[];               /* npos, then reserves */
} ZState;

/* The rules a state follows: the compiled games of the process, by
 * number (ZState.gid is the index plus one), set once when a game is
 * prepared and cleared when it is freed (vm.c); readers need no lock. */
enum { ZMAX_GAMES = 8192 };
extern const ZGame *_Atomic zvm_games_[ZMAX_GAMES];
static inline const ZGame *zvm_game(uint32_t gid)
{
    return atomic_load_explicit(&zvm_games_[(gid - 1) & (ZMAX_GAMES - 1)],
                                memory_order_acquire);
}
#define ZG(s) zvm_game((s)->gid)
#define ZS_RESERVE(s) ((s)->cells + ZG(s)->npos)
/* With a repetition goal: the last ZREP_HIST positions' keys, a ring
 * after the reserves. */
#define ZS_HIST(s, g) ((uint64_t *)((unsigned char *)(s) + (g)->hist_off))
/* Player x's pieces as a bit set over the squares, and his royal
 * pieces (games with a checkmated goal). */
#define ZS_OCC(s, g, x) ((uint64_t *)((unsigned char *)(s) + (g)->occ_off) + \
                         (size_t)(x) * (size_t)(g)->occ_words)
#define ZS_ROYAL(s, g, x) ZS_OCC(s, g, (g)->nplayers + (x))

/* compile.c */
ZGame *zrf_compile(ZReader *r, int variant, PlyError *err,
                   char *unsupported, size_t usz);
void zrf_game_free(ZGame *g);
int zrf_count_variants(const ZReader *r);

/* vm.c */
void zvm_init_state(const ZGame *g, ZState *s);
/* Computes g->reach (attack probes skip templates that cannot land on
 * the square); leaves it NULL when too large. */
void zvm_build_reach(ZGame *g);
/* Run-time tables (links with symmetry resolved); 0, or -1 out of
 * memory. */
int zvm_prepare(ZGame *g);
/* Takes g out of the table (before it is freed). */
void zvm_forget(const ZGame *g);
/* The start position's own end check (a player with no move at all). */
void zvm_start(ZState *s);
int zvm_gen(const ZState *s, Move *out, int max);
void zvm_make(ZState *s, Move m);
int zvm_to_move(const ZState *s);
void zvm_returns(const ZState *s, double *out);
uint64_t zvm_hash_full(const ZState *s);
/* Starts the repetition history at s's position (after a setup). */
void zvm_reset_history(ZState *s);
/* Recomputes what follows from the cells (hash, occupancy) after they
 * were set directly. */
void zvm_sync(ZState *s);
int zvm_move_text(const ZState *s, Move m, char *buf, size_t n);

#define ZMOVE_PASS ((Move)0xffffffffffffULL)

/* A move: its start square (bits 0-11; bit 15 ZMV_PLAIN), template
 * (16-31), emission (32-47) and destination (48-63). A plain move only
 * takes its piece, unchanged, from the start to the destination
 * (removing what stood there): make does not run the template again. */
#define ZMV_PLAIN 0x8000ULL
#define ZMV_START(m) ((int)((m) & 0x7fff))
#define ZMV_TMPL(m) ((int)(((m) >> 16) & 0xffff))
#define ZMV_K(m) ((int)(((m) >> 32) & 0xffff))
#define ZMV_TO(m) ((int)(((m) >> 48) & 0xffff))

/* The number of int32 words of the instruction at pc (opcode included),
 * or -1 when it runs past the code; unknown opcodes 1 (they stop). */
int zvm_insn_len(const ZGame *g, int pc);

#endif
