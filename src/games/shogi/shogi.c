/* shogi.c — shogi (9x9) and minishogi (5x5): one engine, two variants.
 * The rules are in board.c, the text in text.c, the evaluation in
 * eval.c, KIF in kif.c; here are the two games' descriptions. */
#include "shogi.h"

static const char shogi_notation[] =
    "Moves in USI notation: file digit then rank letter for the origin and\n"
    "the destination, '+' to promote (7g7f, 8h2b+); drops as P*5e (piece\n"
    "letter P L N S G B R, '*', square). Files count from 1 at Black's\n"
    "right, ranks from a at White's side. Setup string: SFEN 'BOARD SIDE\n"
    "HANDS [MOVENUMBER]', ranks a..i from file 9 to file 1, upper case\n"
    "Black (sente), lower case White, '+' before a promoted piece; side b\n"
    "or w; hands '-' or e.g. 'RB2Pp' (counts before letters); the move\n"
    "number counts plies from 1. A game ended by repetition adds a fifth\n"
    "field: 'sennichite', or 'perpetual-b'/'perpetual-w' (that side gave\n"
    "perpetual check and lost).";

static const char shogi_rules[] =
    "Japanese chess (Fairy-Stockfish conventions). Black (sente) moves\n"
    "first. Captured pieces go to the captor's hand and may be dropped on\n"
    "any empty square instead of a move. Promotion zone: the last three\n"
    "ranks; a promotable piece may promote when it moves into, out of or\n"
    "within the zone, and must when it could not move again (pawn and\n"
    "lance on the last rank, knight on the last two). Drops may not go\n"
    "where the piece could never move, nor a pawn onto a file holding an\n"
    "unpromoted pawn of the same side (nifu), nor a pawn that mates\n"
    "(uchifuzume). No legal move (checkmate) loses. Fourfold repetition\n"
    "(sennichite) is a draw, unless one side gave check with every move\n"
    "since the first occurrence: that side loses. Repetitions are looked\n"
    "up among the last 128 plies. Impasse: the 27-point declaration rule\n"
    "applied automatically - the side to move wins when its king is in\n"
    "the enemy camp, not in check, with 10 other pieces there, and its\n"
    "pieces there plus in hand count 28 (Black) / 27 (White) points (rook\n"
    "and bishop 5, others 1). Differences from Fairy-Stockfish: it has no\n"
    "impasse rule and no move limit; here the game is drawn at move\n"
    "number 513 (512 plies), as tournament servers cap games.";

static const char minishogi_notation[] =
    "As shogi on 5x5: files 1-5, ranks a-e (2e2d, B*3c, 4d5e+). Setup\n"
    "string: SFEN 'BOARD SIDE HANDS [MOVENUMBER]'; a game ended by\n"
    "repetition adds 'sennichite', 'perpetual-b' or 'perpetual-w'.";

static const char minishogi_rules[] =
    "Minishogi (Gosho shogi) on 5x5, Fairy-Stockfish conventions: each\n"
    "side has king, gold, silver, bishop, rook and pawn; Black starts\n"
    "with its pieces on rank e (KGSBR from file 5 to 1) and a pawn on 5d.\n"
    "Shogi rules (drops, nifu, uchifuzume, forced pawn promotion) with the\n"
    "promotion zone being the last rank. Fourfold repetition draws,\n"
    "perpetual check loses (repetitions looked up among the last 128\n"
    "plies). No impasse rule (as Fairy-Stockfish). Differences from\n"
    "Fairy-Stockfish: the game is drawn at move number 513 (512 plies);\n"
    "Fairy-Stockfish 11.1 lets some mating pawn drops through (pawn\n"
    "guarded by a silver), so its perft 7 is 132680698, Ply's 132680617.";

#define SHOGI_HOOKS                                                     \
    .to_move = shogi_to_move, .gen_moves = shogi_gen_moves,             \
    .make = shogi_make, .returns = shogi_returns, .hash = shogi_hash,   \
    .to_text = shogi_to_text, .from_text = shogi_from_text,             \
    .move_to_text = shogi_move_to_text,                                 \
    .text_to_move = shogi_text_to_move, .render = shogi_render,         \
    .layout = shogi_layout, .end_reason = shogi_end_reason,             \
    .eval = shogi_eval, .heuristic = shogi_heuristic,                   \
    .is_noisy = shogi_is_noisy, .score = shogi_score,                   \
    .check = shogi_check, .in_check = shogi_in_check,                   \
    .gen_noisy = shogi_gen_noisy, .gen_checks = shogi_gen_checks,       \
    .null_move_ok = shogi_null_move_ok, .make_null = shogi_make_null

const GameVtbl game_shogi = {
    .info = {
        .name = "shogi",
        .title = "Shogi (Japanese chess, 9x9)",
        .num_players = 2,
        .max_moves = MAX_MOVES,
        .max_game_length = MAX_PLIES,
        .state_size = sizeof(Shogi),
        .flags = GAME_ZERO_SUM,
        .player_names = sg_players,
        .options = NULL,
        .notation = shogi_notation,
        .rules = shogi_rules,
    },
    .init = shogi_init,
    .tuning = &shogi_tuning,
    .formats = sg_formats_shogi,
    .see = shogi_see,
    .net = &shogi_net,
    SHOGI_HOOKS,
};

const GameVtbl game_minishogi = {
    .info = {
        .name = "minishogi",
        .title = "Minishogi (5x5 shogi)",
        .num_players = 2,
        .max_moves = MAX_MOVES,
        .max_game_length = MAX_PLIES,
        .state_size = sizeof(Shogi),
        .flags = GAME_ZERO_SUM,
        .player_names = sg_players,
        .options = NULL,
        .notation = minishogi_notation,
        .rules = minishogi_rules,
    },
    .init = minishogi_init,
    .tuning = &minishogi_tuning,
    .formats = sg_formats_minishogi,
    .see = shogi_see,
    .net = &minishogi_net,
    SHOGI_HOOKS,
};

static const char micro_notation[] =
    "USI notation as Fairy-Stockfish writes micro shogi: files 1-4 from\n"
    "Black's right, ranks a-e from White's side (1d1c). A capture flips the\n"
    "capturer and is marked '+' when a front face (B R L P) turns over and\n"
    "'-' when a reverse face turns back (2e4c+, 4c3e-); the mark may be\n"
    "left out on input. Drops name the pair and the face: B*2c, +B*2c (a\n"
    "tokin). Setup string: SFEN 'BOARD SIDE HANDS [MOVENUMBER]' with\n"
    "Fairy-Stockfish's letters: K, B (bishop) and +B (tokin), R (rook) and\n"
    "+R (gold), L (lance) and +L (silver), P (pawn) and +P (knight); hands\n"
    "by pair letter (B R L P). Start: kb+r+l/p3/4/3P/+L+RBK b - 1.";

static const char micro_rules[] =
    "Micro shogi (Oyama Yasuharu) on 4 files x 5 ranks, as Fairy-Stockfish\n"
    "plays it (variant micro). Each side has king, bishop, gold, silver and\n"
    "pawn; Black starts with S G B K on rank e (files 4 to 1) and the pawn\n"
    "in front of the king. Every piece but the king has two faces: bishop /\n"
    "tokin, gold / rook, silver / lance, pawn / knight. There is no\n"
    "promotion zone: a piece flips to its other face every time it\n"
    "captures (compulsory), so a flipped piece flips back on its next\n"
    "capture. Captured pieces go to the captor's hand and may be dropped on\n"
    "any empty square either face up. Rules chosen where the sources are\n"
    "silent (Fairy-Stockfish's): no nifu, no pawn-drop-mate rule, no\n"
    "dead-square rule (a pawn or lance on the last rank, a knight on the\n"
    "last two stay and can still capture); checkmate (no legal move) loses.\n"
    "Fourfold repetition draws unless one side checked throughout (it\n"
    "loses). The game is drawn at move number 513 (512 plies). Dagaz plays\n"
    "the game to king capture; with legal moves only the two agree.";

const GameVtbl game_micro_shogi = {
    .info = {
        .name = "micro-shogi",
        .title = "Micro shogi (4x5, pieces flip on capture)",
        .num_players = 2,
        .max_moves = MAX_MOVES,
        .max_game_length = MAX_PLIES,
        .state_size = sizeof(Shogi),
        .flags = GAME_ZERO_SUM,
        .player_names = sg_players,
        .options = NULL,
        .notation = micro_notation,
        .rules = micro_rules,
    },
    .init = micro_init,
    .tuning = &micro_tuning,
    .formats = sg_formats_micro,
    SHOGI_HOOKS,
};
