/* game.h — the interface every Ply game implements.
 *
 * A game is a const table of functions plus metadata (GameVtbl), listed in
 * the static registry (registry.c). States are flat, copyable blobs of
 * info.state_size bytes with no pointers inside: any bot copies them with
 * memcpy. Game parameters ("houses=6,seeds=4") are validated by the core
 * against the game's option table and handed to init() as integers; the
 * game stores what it needs of them inside the state, so the state alone
 * describes the position.
 *
 * Conventions every game follows:
 * - to_move() returns the player to move (0..num_players-1), PLAYER_CHANCE
 *   at a chance node, PLAYER_TERMINAL when the game is over.
 * - A player may move several times in a row (partial moves, extra turns):
 *   callers always ask to_move(), they never assume alternation.
 * - gen_moves() writes at most info.max_moves moves, in a deterministic
 *   order, each distinct. At a chance node it writes the outcomes (the same
 *   ones chance_outcomes() gives with probabilities).
 * - returns() is meaningful at terminal states: one value per player in
 *   [-1, 1] (win 1, loss -1, draw 0 for two players).
 * - Text: to_text/from_text round-trip exactly; move_to_text/text_to_move
 *   round-trip for every legal move. Parsers never trust their input: they
 *   fail with a message in *err, never crash.
 */
#ifndef PLY_GAME_H
#define PLY_GAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rng.h"

typedef uint64_t Move;

enum { PLAYER_TERMINAL = -1, PLAYER_CHANCE = -2 };
enum { PLY_MAX_PLAYERS = 8, PLY_MAX_OPTIONS = 8 };

/* Evaluation scale: a pawn-ish unit is 100; proven results lie beyond. */
enum { EVAL_WIN = 1000000, EVAL_MAX = 30000 };

/* Flags in GameInfo.flags. */
enum {
    GAME_ZERO_SUM = 1u << 0,    /* returns add up to 0 */
    GAME_CHANCE = 1u << 1,      /* has chance nodes */
    GAME_HIDDEN = 1u << 2,      /* imperfect information: use observe() */
    GAME_IMPARTIAL = 1u << 3,   /* both players have the same moves */
};

/* An error message for the user: what was wrong, naming the bad input. */
typedef struct PlyError {
    char msg[256];
} PlyError;

/* Set err->msg (if err is not NULL) and return -1, so parsers can write
 * `return ply_fail(err, "bad square '%s'", s);`. */
int ply_fail(PlyError *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Options: key=value pairs validated by the core against a declared
 * table (src/core/options.c), for games and bots alike. A game's values
 * reach init() as one int per row (INT, BOOL and CHOICE only); a bot's
 * are written into its own options struct at each row's `offset`:
 *   OPT_INT      int       whole number in min..max ("100k" = 100000)
 *   OPT_BOOL     int       0/1 (accepts 1|0|true|false|yes|no|on|off)
 *   OPT_CHOICE   int       index into choices
 *   OPT_DOUBLE   double    in min..max (OPTF_MIN_EXCLUSIVE: > min)
 *   OPT_SIZE     size_t    bytes; a bare number is MiB, suffixes k, M, G
 *   OPT_DURATION int64_t   milliseconds; "150ms", "2s", "1.5s", "3m"
 *   OPT_COUNT    uint64_t  a count, "100k", "2M"; max 0 = unbounded
 *   OPT_STRING, OPT_FILE   char[OPT_TEXT_MAX]; def_text or ""
 * def, min and max are in the stored unit (bytes, ms). */
typedef enum {
    OPT_INT, OPT_BOOL, OPT_CHOICE, OPT_DOUBLE, OPT_SIZE, OPT_DURATION,
    OPT_COUNT, OPT_STRING, OPT_FILE
} OptionType;

enum { OPT_TEXT_MAX = 256 };

enum {
    OPTF_MIN_EXCLUSIVE = 1u << 0,   /* OPT_DOUBLE: the value must be > min */
    OPTF_ALIAS = 1u << 1,           /* another name of the row before it */
    /* a value above the default costs the host memory, threads or
     * minutes of CPU (hash, threads, endgame databases): front ends that
     * serve untrusted clients refuse it (option_guard, options_guard) */
    OPTF_COSTLY = 1u << 2,
};

typedef struct Option {
    const char *key;
    OptionType type;
    double def;                 /* a number, 0/1, a choice index, bytes, ms */
    double min, max;            /* range, inclusive */
    const char *const *choices; /* OPT_CHOICE: NULL-terminated names */
    const char *help;
    /* bots only (games leave these zero) */
    size_t offset;              /* offsetof into the bot's options struct */
    const char *engine;         /* standard engine-option name a front end
                                 * may advertise: "Hash" (MiB), "Threads" */
    unsigned flags;             /* OPTF_* */
    const char *def_text;       /* OPT_STRING/OPT_FILE default, NULL = "" */
} Option;

/* A game's options: the same rows (offset unused). */
typedef Option GameOption;

typedef struct GameInfo {
    const char *name;           /* "draughts-russian": the registry key */
    const char *title;          /* "Russian draughts (shashki)" */
    int num_players;            /* 1..8 */
    int max_moves;              /* bound on gen_moves() output */
    int max_game_length;        /* plies (moves of any player), a hard bound */
    size_t state_size;          /* bytes of a state (and of an observation) */
    unsigned flags;
    const char *const *player_names;  /* num_players names: "Black", "White" */
    const GameOption *options;  /* terminated by {.key = NULL}; may be NULL */
    const char *notation;       /* how moves and setup strings are written */
    const char *rules;          /* a rules summary for `ply info` */
    /* The bot spec front ends use when the user names none (NULL: the
     * core's rule in game_default_bot(), registry.h). */
    const char *default_bot;
    /* The bot `ply codecup` plays when the user names none (NULL: the
     * default bot, with CodeCup's memory limit for mcts; codecup.c). */
    const char *codecup_bot;
    /* Fixed part of the time manager's safety margin in ms (0: the
     * default, timeman.h), for games whose moves take long to send. */
    int time_margin_ms;
} GameInfo;

/* A linear evaluation, for tuning by `ply tune` (src/tools/tune.c).
 * At a non-terminal state where eval() is not clamped,
 *   eval(st, 0) == base + sum of coef * weights[index] over the terms,
 * up to the rounding of eval()'s integer arithmetic (a few units). The
 * weights are the const values eval() is compiled with; the tuner fits new
 * ones to game results and writes them back as C source. */
typedef struct EvalTerm {
    int index;                  /* 0..nparams-1 */
    float coef;                 /* how many times the weight counts */
} EvalTerm;

enum { EVAL_MAX_TERMS = 2048 }; /* bound on terms() output */

typedef struct EvalTuning {
    int nparams;
    const char *const *names;   /* "knight.mg", "pst.pawn.e4.eg", ... */
    const int *weights;         /* nparams: the values eval() uses */
    /* Terms of st's evaluation from player 0's view (at most
     * EVAL_MAX_TERMS); returns their count, the part no weight scales goes
     * to *base. */
    int (*terms)(const void *st, EvalTerm *out, double *base);
    /* Optional, for games of more than two players: the same from
     * `player`'s view (eval(st, player) == base + sum of coef * weight),
     * which alphabeta's weights=FILE needs there. */
    int (*terms_of)(const void *st, int player, EvalTerm *out,
                    double *base);
} EvalTuning;

/* Inputs of a learned evaluation (src/search/net.h): sparse one-hot
 * features of a position seen from one player, e.g. (piece, square) with
 * the board turned so that `persp` plays up the board. A net reads the
 * features of both players, the mover's first. The search updates its
 * accumulators from the difference between a position's features and its
 * parent's, so a move costs the features it adds and removes. */
enum { NET_DELTA_MAX = 8 };  /* NetFeatures.feature_delta's bound */

typedef struct NetFeatures {
    const char *name;           /* the feature set, saved in net files */
    int ninputs;                /* feature indices are 0..ninputs-1 */
    int max_active;             /* bound on features() output */
    /* The active features of st from persp's view, distinct, any order;
     * returns their count. */
    int (*features)(const void *st, int persp, uint16_t *out);
    /* Optional, for speed: the same features as a bit set, bit f of
     * out[f / 64] for feature f, on out[] of (ninputs + 63) / 64 words
     * already zeroed. Must agree with features() (test_net checks). */
    void (*feature_bits)(const void *st, int persp, uint64_t *out);
    /* Optional, for speed: what the legal move m changes in the
     * features of st (the position before m) from persp's view: the
     * features it removes written to rem, those it adds to add, at most
     * NET_DELTA_MAX each, their counts through nrem and nadd (no feature
     * in both). Returns 0, or -1 when the game would rather have the
     * features scanned (then nothing is written). With it the search
     * moves a child's accumulators from its parent's by these rows
     * alone. Must agree with features() (test_net checks). */
    int (*feature_delta)(const void *st, Move m, int persp, uint16_t *rem,
                         int *nrem, uint16_t *add, int *nadd);
    /* Optional, for training on little data: a coarser feature each
     * feature also counts as (its piece without the square), 0..
     * nfactors-1; the trainer learns the factors' weights beside the
     * features' and adds them into the features' before saving. */
    int nfactors;
    int (*factor)(int feature);
    /* Optional: a net file trained for the game (`ply train embed`),
     * alphabeta's evaluation unless net= or weights= says otherwise. */
    const unsigned char *builtin;
    size_t builtin_len;
} NetFeatures;

/* ---- formats: how the outside world writes the game ----
 * A game may declare the record formats (PGN, PDN, KIF) and engine wire
 * dialects (UCI, UCCI, USI, CECP) it speaks, so that `ply record`, the
 * engine modes and the referee ask the game instead of naming it
 * (lookups in format.h). */
struct GameVtbl;
typedef struct Record Record;   /* a plain game record: record.h */

/* Receives each game a reader finds; 0 to go on, -1 to stop (with err). */
typedef int (*RecordSink)(const Record *r, void *ctx, PlyError *err);

enum {
    /* The dialect's own game: engines need no variant named for it
     * (chess on UCI and CECP, shogi on USI, xiangqi on UCCI). */
    FORMAT_NATIVE = 1u << 0,
};

typedef struct GameFormat {
    const char *name;       /* "pgn", "pdn", "kif", "uci", "ucci", "usi", ... */
    /* How that world names the game (UCI_Variant "xiangqi", xboard's
     * "variant makruk"); NULL: Ply's name. */
    const char *variant;
    unsigned flags;         /* FORMAT_NATIVE */
    const char *extension;  /* of a record file ("pgn", "kifu"); NULL on wires */
    /* GTP: the board's size for `boardsize` when the game has no "size"
     * option (reversi: 8); 0 otherwise. */
    int board_size;
    /* GTP final_score: the result of the terminal position st as GTP
     * writes it ("B+3.5", "W+12", "0"); returns the length, or -1. NULL:
     * the winner by returns() and the difference of score(). */
    int (*score_text)(const void *st, char *buf, size_t n);
    /* Records. write_record writes one game (its moves replayed and
     * checked; nothing is trusted) and returns 0, or -1 with err naming
     * the bad part. read_records hands every game of a whole file (len
     * bytes, in the format's encodings) to sink in order, and returns 0,
     * or -1 with err naming the line. g is the game that declared the
     * format; a reader may find another of its family (KIF: minishogi). */
    int (*write_record)(const struct GameVtbl *g, const Record *r,
                        FILE *out, PlyError *err);
    int (*read_records)(const struct GameVtbl *g, const char *text,
                        size_t len, RecordSink sink, void *ctx,
                        PlyError *err);
    /* Wires: a move or setup string in Ply's notation to the dialect's
     * and back; NULL when the dialect writes them as Ply does. Each
     * returns the length written, or -1 when it does not fit or is not
     * of the expected shape. */
    int (*move_to_wire)(const char *own, char *buf, size_t n);
    int (*move_from_wire)(const char *wire, char *buf, size_t n);
    int (*setup_to_wire)(const char *own, char *buf, size_t n);
    int (*setup_from_wire)(const char *wire, char *buf, size_t n);
    /* Records of a format several games share (SGF's GM[n]): 1 when the
     * file's text holds this game's records; NULL: any file does. */
    int (*claims)(const char *text, size_t len);
    /* GTP for stone games (go); NULL when the game has none, and the GTP
     * commands that need it are not offered. stones: the stones on st's
     * board as moves naming their points, at most max into out: those of
     * player (-1: both) whose status is `status` (-1: any, else
     * GTP_ALIVE, GTP_DEAD, GTP_SEKI, as the game judges them: playouts
     * seeded by seed); returns the count, or -1. cleanup_moves
     * (kgs-genmove_cleanup): legal moves of the side to move at st that
     * work at removing the opponent's dead stones, best first, at most
     * max; 0 when the opponent has none. handicap_setup: the setup
     * string of st (an empty board) with player 0's stones added at the
     * n points pts and player 1 to move; its length, or -1. */
    int (*stones)(const void *st, int player, int status, uint64_t seed,
                  Move *out, int max);
    int (*cleanup_moves)(const void *st, uint64_t seed, Move *out, int max);
    int (*handicap_setup)(const void *st, const Move *pts, int n, char *buf,
                          size_t len);
} GameFormat;

enum { GTP_ALIVE, GTP_DEAD, GTP_SEKI };

/* ---- drawing: the layout hook (optional) ----
 * How a front end draws the game (the web page, docs/web-api.md): cells
 * with centres in cell units (x right, y down, player 0 at the bottom),
 * a shape and shade, the cell's name in the game's notation, and what is
 * on it now. Moves are located on it by the names their notation
 * contains (layout_move_cells(), core/layout.h) unless the game has a
 * move_cells hook. */
enum {
    CELL_SQUARE, CELL_POINT, CELL_HEX, CELL_PIT, CELL_STORE, CELL_HAND,
    CELL_EDGE, CELL_TILE
};
enum {
    SHADE_NONE, SHADE_LIGHT, SHADE_DARK, SHADE_SPECIAL, SHADE_WALL,
    SHADE_MINE, SHADE_TAVERN
};
enum { LAYOUT_MAX_CELLS = 1024, LAYOUT_MAX_LINES = 128, MOVE_MAX_CELLS = 32 };

typedef struct LayoutCell {
    float x, y;             /* centre */
    float w, h;             /* size; 0: 1 */
    float dx, dy;           /* CELL_EDGE: half-length vector */
    uint8_t shape, shade;
    int8_t owner;           /* of the contents; -1 none or neutral */
    uint8_t king;           /* a crowned piece */
    int count;              /* seeds, pieces in hand, ...; 0: not shown */
    char name[12];          /* in the notation; "" when no move names it */
    char glyph[12];         /* UTF-8 text on the piece; "" empty */
    char stack[24];         /* column owners bottom to top ("0011") */
    char label[24];         /* small extra text */
} LayoutCell;

typedef struct Layout {
    float width, height;
    int ncells, nlines;
    LayoutCell cells[LAYOUT_MAX_CELLS];
    float lines[LAYOUT_MAX_LINES][4];
} Layout;

/* The cells a move touches, in clicking order (from, path, to). */
typedef struct MoveCells {
    int n;
    int cells[MOVE_MAX_CELLS];
    char choice[12];        /* promotion or other choice, "" none */
    char drop[12];          /* a dropped piece, "" none */
} MoveCells;

typedef struct GameVtbl {
    GameInfo info;

    /* Start position. opt[] holds one value per entry of info.options, in
     * order, already validated. seed serves games with random setups. */
    int (*init)(void *st, const int *opt, uint64_t seed, PlyError *err);

    int (*to_move)(const void *st);
    int (*gen_moves)(const void *st, Move *out);
    void (*make)(void *st, Move m);
    void (*returns)(const void *st, double *out);
    uint64_t (*hash)(const void *st);

    /* Setup strings. from_text is called on a state already init()ed with
     * the game's options and replaces the position only. */
    int (*to_text)(const void *st, char *buf, size_t n);
    int (*from_text)(void *st, const char *s, PlyError *err);
    /* Move notation, relative to the state before the move. text_to_move
     * accepts only legal moves. */
    int (*move_to_text)(const void *st, Move m, char *buf, size_t n);
    int (*text_to_move)(const void *st, const char *s, Move *m, PlyError *err);
    /* An ASCII picture of the position for humans (several lines). */
    int (*render)(const void *st, char *buf, size_t n);

    /* ---- optional hooks, NULL when absent ---- */
    /* Static evaluation in EVAL units from `player`'s point of view. */
    int (*eval)(const void *st, int player);
    /* Every player's eval() at once: out[p] == eval(st, p) for each seat
     * p playing at st (state_seats(); out holds PLY_MAX_PLAYERS), for
     * games whose evaluation computes all players' features together;
     * max-n calls it once per leaf, and MCTS once per playout cut short
     * (ept), instead of eval() once per player. */
    void (*eval_all)(const void *st, int *out);
    /* Move ordering / playout priority: higher is better; below 0 means a
     * move a sensible player avoids. */
    int (*heuristic)(const void *st, Move m);
    /* Captures and the like, searched in quiescence. */
    int (*is_noisy)(const void *st, Move m);
    /* Chance node: outcomes and their probabilities; returns the count. */
    int (*chance_outcomes)(const void *st, Move *out, double *p);
    /* Hidden information: what `player` sees (obs is state_size bytes), and
     * a full state consistent with an observation, sampled with r. An
     * observation observed again by its player, and a full state given to
     * determinize(), come back unchanged (a search may hand a sampled
     * world to a perfect-information bot, which determinizes again). */
    void (*observe)(const void *st, int player, void *obs);
    void (*determinize)(const void *obs, int player, Rng *r, void *st);
    /* Reads a player's view (what to_text writes for an observation: the
     * observation's setup string) into st, an init()ed state, as that
     * observation; returns the observer's seat, or -1 with err set.
     * from_text refuses views. NULL: views are not read (an external
     * engine cannot be told the position of a game whose observations
     * differ from its states). */
    int (*from_view)(void *st, const char *s, PlyError *err);
    /* Plays st to the end with the game's fast default playout policy.
     * When NULL, bots play uniformly random moves through gen_moves. */
    void (*playout)(void *st, Rng *r);
    /* Score for display and tie-breaks (e.g. discs, seeds in store). */
    int (*score)(const void *st, int player);
    /* Invariant check for debug builds and tests: 0 when consistent. */
    int (*check)(const void *st);
    /* ---- search hooks for chess-like games (optional, NULL when absent) */
    /* The side to move is in check: searches extend such nodes. */
    int (*in_check)(const void *st);
    /* Exactly the legal moves is_noisy() accepts, in gen_moves() order,
     * generated faster than filtering gen_moves() (quiescence). */
    int (*gen_noisy)(const void *st, Move *out);
    /* The legal moves is_noisy() refuses after which the opponent is in
     * check (a mate included), in gen_moves() order: quiescence searches
     * them at its first ply (alphabeta qchecks=1). */
    int (*gen_checks)(const void *st, Move *out);
    /* Null-move pruning: null_move_ok() says passing is safe to assume
     * worse than moving (material enough, zugzwang unlikely; the caller
     * checks in_check itself); make_null() hands the move to the other
     * side without moving. Both present or both NULL. */
    int (*null_move_ok)(const void *st);
    void (*make_null)(void *st);
    /* Games with a repetition draw: the position occurred before since
     * the last irreversible move. Searches score it as a draw inside the
     * tree (a table entry from another history would hide the repeat). */
    int (*repeated)(const void *st);
    /* Static exchange evaluation of a legal move: 1 when the material
     * (EVAL units) the mover expects to win (< 0: lose), both sides
     * recapturing on the move's square with their least valuable piece
     * while it pays, is at least threshold; else 0. A quiet move (a drop
     * too) gains nothing and risks the piece it puts on the square.
     * Orders and prunes captures; alphabeta's chksee asks it about
     * checks as well. */
    int (*see)(const void *st, Move m, int threshold);
    /* ---- evaluation tuning (optional, NULL when absent) ---- */
    const EvalTuning *tuning;
    /* ---- outside-world formats (optional): NULL-terminated ---- */
    const GameFormat *const *formats;
    /* ---- time management (optional, NULL when absent) ---- */
    /* Expected plies until the end of the game at st (any player's), for
     * sharing a clock (timeman.h); <= 0 when unknown. */
    int (*plies_left)(const void *st);
    /* ---- drawing (optional, NULL when absent: a generic text view) ----
     * layout fills *out (zeroed by the caller) for st; 0 or -1. */
    int (*layout)(const void *st, Layout *out);
    /* The cells of legal move m at st on layout l (NULL: found from the
     * move's notation by the cell names, layout_move_cells()). */
    int (*move_cells)(const void *st, const Layout *l, Move m,
                      MoveCells *out);
    /* Why the game ended at terminal st, for people ("checkmate",
     * "threefold repetition"); NULL when it cannot say. */
    const char *(*end_reason)(const void *st);
    /* ---- endgame databases (optional, NULL when absent) ---- */
    /* When the game knows the result of st under best play (a database
     * hit), returns 1 and sets *result to 1 (win), 0 (draw) or -1 (loss)
     * for `player`; 0 when it does not know. */
    int (*exact)(const void *st, int player, int *result);
    /* ---- MCTS guidance (optional, NULL when absent) ---- */
    /* As playout(), also writing the moves played and their players
     * (up to cap of them, for RAVE/AMAF); returns the count written. */
    int (*playout_log)(void *st, Rng *r, Move *moves, int8_t *players,
                       int cap);
    /* Priors for the n moves of a new tree node at st: for each, the
     * equivalent visits[i] >= 0 and wins[i] in 0..visits[i] the search
     * starts that child with (value (2 wins - visits) / visits). */
    void (*priors)(const void *st, const Move *moves, int n, int *visits,
                   int *wins);
    /* ---- seats taking part (optional, NULL when absent) ----
     * When options leave some of the info.num_players seats empty
     * (splut players=2): the number n of seats playing at st (fixed by
     * the options, the same in every position of a game); the players
     * are seats 0..n-1 and names[0..n-1] receives their names when names
     * is not NULL. Front ends seat n participants; returns() fills the
     * other seats' entries with 0. NULL: every seat plays, named by
     * info.player_names. Ask through state_seats() (setup.h). */
    int (*seats)(const void *st, const char **names);
    /* ---- players leaving the game (optional, NULL when absent) ----
     * 1 when `player` has left the game at st (a team removed in splut)
     * and its entry of returns(st) is the one it gets at the end of every
     * continuation; 0 while it plays (or may still do better or worse).
     * A game with the hook promises that leaving is never better than
     * staying in (an eliminated team gets the worst place left).
     * Searches for more than two players stop at a node where the player
     * they search for has left, and value it below any position where it
     * still plays. */
    int (*eliminated)(const void *st, int player);
    /* ---- learned evaluation (optional, NULL when absent) ---- */
    const NetFeatures *net;
    /* ---- a deeper exact search (optional, NULL when absent) ----
     * As exact(), with a budget of about `nodes` positions (the caller's
     * choice, e.g. once per move at the root, where exact() must stay
     * cheap at every leaf). work/work_bytes: the caller's memory for the
     * game's table, zeroed before the first call and kept between calls
     * on the positions of one game, so that what one call proved serves
     * the next (NULL: the game uses memory of its own for one call). When
     * it returns 1 with *result 1 for the side to move, *best is a move
     * that keeps the win. */
    int (*exact_move)(const void *st, int player, long nodes, void *work,
                      size_t work_bytes, int *result, Move *best);
    /* ---- symmetries and an opening book (optional) ----
     * nsym symmetries of the board (0: none declared) that map the start
     * position to itself and legal play to legal play: sym_move(st, k, m)
     * is the image of move m under symmetry k (0 <= k < nsym, 0 the
     * identity), so the images of a game's moves, played from the start,
     * are a legal game whose positions are the images of its own. st is
     * a position of the game, for what its options fix (a board's size);
     * the image depends on nothing else. `ply
     * book` searches one position of each class with them. book: the
     * game's opening book (book.h), played by bots with book=1. */
    int nsym;
    Move (*sym_move)(const void *st, int k, Move m);
    const struct Book *book;
} GameVtbl;

#endif
