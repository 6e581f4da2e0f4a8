/* codecup.c — `ply codecup GAME`: a CodeCup/Caia player. The referee
 * starts the program once per game; "Start" means we move first,
 * otherwise the first line is the opponent's move. Each later line is a
 * move of the opponent, "Quit" ends. We keep within a total thinking
 * time per game and claim a win with "!" when the bot proved it or, with
 * MCTS, when its estimate is high enough late enough (claim_now). */
#include <stdlib.h>
#include <string.h>

#include "../core/registry.h"
#include "../core/session.h"
#include "../core/setup.h"
#include "../core/timeman.h"
#include "../core/util.h"
#include "ugi.h"

enum { CC_LINE_MAX = 4096 };

/* Root solve (a game's exact_move hook) before each search, for up to
 * about a third of the move's time: calls of CC_SOLVE_NODES positions,
 * doubling, while the time taken so far leaves room for the next (the
 * table is kept, so each call goes on from what the last one solved). A
 * proven win is played (and claimed) at once, without the search. */
enum { CC_SOLVE_NODES = 10000, CC_SOLVE_CALLS = 12 };
/* The root solve's table, kept for the whole game: 16 MiB (the CodeCup
 * memory limit is 256 MiB; the default mcts pool is 160). */
#define CC_SOLVE_BYTES ((size_t)16 << 20)

/* CodeCup's mcts: a pool well under the 256 MiB the competition allows
 * (two halves with tree reuse; peak RSS about mem + 6 MiB: 166 MiB
 * measured with /usr/bin/time -v on a full game of 250,000 iterations a
 * move, both halves full). c=0.6: on zuniq at 50 ms a move, c=0.6 beat
 * c=1.0 114-86 and c=0.4 110-90 (200 games each); grave=50 lost 43-157
 * and playouts=4 was even; rave=1 lost 23-37 (60 games). exact=1 (the
 * game's solver at leaf expansion, zuniq's exact hook) beat exact=0 24-16
 * at 100 ms a move (40 games); a game without the hook ignores it.
 * book=1: the game's opening book (zuniq's, docs/book.md) is played at
 * once, and the time saved goes to the later moves. A game may name its
 * own (GameInfo.codecup_bot; zuniq's adds an opponent model as White). */
const char *codecup_default_bot(const GameVtbl *g)
{
    if (g->info.codecup_bot)
        return g->info.codecup_bot;
    const char *d = game_default_bot(g);
    return strcmp(d, "mcts") ? d : "mcts:mem=160,c=0.6,exact=1,book=1";
}

/* Reads one line without its newline; 0 at end of input. */
static int read_line(FILE *in, char *buf, size_t n)
{
    if (!fgets(buf, (int)n, in))
        return 0;
    if (!strchr(buf, '\n')) {
        int ch;     /* too long: drop the rest, the move will not parse */
        while ((ch = fgetc(in)) != EOF && ch != '\n')
            ;
    }
    buf[strcspn(buf, "\r\n")] = 0;
    size_t l = strlen(buf);
    while (l && (buf[l - 1] == ' ' || buf[l - 1] == '\t'))
        buf[--l] = 0;
    return 1;
}

/* Whether to append '!' to a move: a proven win, or an MCTS estimate
 * over the policy's threshold late enough. CodeCup 2021 scores a win 100,
 * a loss 50, a false claim 0, and a right claim at move x a bonus of
 * (39 - x) / 2 for the first player, (40 - x) / 2 for the second, at most
 * 10: the bonus is full up to move 19/20, so claiming earlier gains
 * nothing; with estimated win chance q a claim pays when
 * q (100 + bonus) > 100 q + 50 (1 - q). MCTS means of random playouts are
 * pessimistic about won positions (a playout errs where a player would
 * not), so the threshold is on the mean, tuned by matches (docs). */
static int claim_now(const CodecupClaim *cl, int mcts, const SearchInfo *si,
                     int x)
{
    if (si->proven > 0)
        return 1;
    if (!mcts || si->proven < 0 || x < cl->from_ply || cl->value > 1)
        return 0;
    return si->value >= 0 && si->value <= 1000 &&
           si->value >= cl->value * 1000.0;
}

int codecup_run(FILE *in, FILE *out, FILE *log, const GameVtbl *g,
                const char *options, const char *spec, uint64_t seed,
                int64_t total_ms)
{
    return codecup_run_claim(in, out, log, g, options, spec, seed, total_ms,
                             NULL);
}

int codecup_run_claim(FILE *in, FILE *out, FILE *log, const GameVtbl *g,
                      const char *options, const char *spec, uint64_t seed,
                      int64_t total_ms, const CodecupClaim *claim)
{
    PlyError err = {{0}};
    const CodecupClaim defclaim = {CODECUP_CLAIM_VALUE, CODECUP_CLAIM_FROM};
    const CodecupClaim *cl = claim ? claim : &defclaim;
    const char *bspec = spec ? spec : codecup_default_bot(g);
    /* estimates are read as mean rewards only from the MCTS bot */
    int mcts = !strncmp(bspec, "mcts", 4) &&
               (bspec[4] == 0 || bspec[4] == ':');
    int claimed = 0;
    void *work = NULL;      /* the root solve's table (exact_move) */
    Session *s = session_new(g, options, bspec, seed, &err);
    if (!s) {
        fprintf(log, "ply codecup: %s\n", err.msg);
        return 1;
    }
    /* a safety margin for reading, writing and the referee's own clock */
    int64_t reserve = total_ms / 20 > 300 ? 300 : total_ms / 20;
    int64_t used = 0;
    int me = -1, ply = 0, rc = 1;
    char line[CC_LINE_MAX];
    int64_t turn_start = 0;
    for (;;) {
        const void *st = session_state(s);
        int p = g->to_move(st);
        if (p != PLAYER_TERMINAL && p == me) {
            /* our move: a share of the time left */
            Clock c = {.left_ms = total_ms - used, .margin_ms = reserve};
            if (mcts && !g->plies_left) {
                /* the solver plays the last third of a game at once: share
                 * the time over the moves before it (random-game estimate
                 * of the moves left, time_moves_left); a game's own
                 * plies_left already counts only the plies that cost */
                int mv = time_moves_left(g, st, &c, seed + (uint64_t)ply);
                c.moves_to_go = mv > 3 ? (mv * 2 + 2) / 3 : mv;
            }
            int64_t budget = time_budget(g, st, &c, seed + (uint64_t)ply);
            SearchInfo si;
            memset(&si, 0, sizeof si);
            Move m = 0;
            int res = 0, solved = 0;
            if (g->exact_move) {
                int64_t t0 = now_ms();
                if (!work)
                    work = calloc(1, CC_SOLVE_BYTES);
                long nodes = CC_SOLVE_NODES;
                for (int i = 0; i < CC_SOLVE_CALLS; i++, nodes *= 2) {
                    if (g->exact_move(st, me, nodes, work,
                                      work ? CC_SOLVE_BYTES : 0, &res, &m)) {
                        solved = res > 0;
                        break;
                    }
                    /* the next call takes about as long as all so far */
                    if ((now_ms() - t0) * 9 >= budget)
                        break;
                }
                int64_t spent = now_ms() - t0;
                budget = budget - spent > 1 ? budget - spent : 1;
            }
            if (solved) {
                si.proven = 1;
            } else {
                Limits lim = session_bot_limits(s);
                if (!lim.time_ms || lim.time_ms > budget)
                    lim.time_ms = budget;
                if (session_go(s, &lim, 0, &err)) {
                    fprintf(log, "ply codecup: %s\n", err.msg);
                    break;
                }
                m = session_wait(s, &si);
            }
            char mb[256];
            if (!state_is_legal(g, st, m) ||
                g->move_to_text(st, m, mb, sizeof mb) < 0) {
                fprintf(log, "ply codecup: the bot found no legal move\n");
                break;
            }
            /* one claim a game: the first one scores */
            int bang = !claimed && claim_now(cl, mcts, &si, ply + 1);
            claimed |= bang;
            fprintf(out, "%s%s\n", mb, bang ? "!" : "");
            fflush(out);
            int64_t took = now_ms() - turn_start;
            used += took;
            /* one short line per move: CodeCup keeps ~10 kB of stderr */
            fprintf(log, "%d %s%s%s %lld/%lld ms %llu it v %d\n", ply + 1,
                    mb, bang ? "!" : "",
                    si.proven > 0 ? "=" : si.proven < 0 ? "?" : "",
                    (long long)took, (long long)budget,
                    (unsigned long long)si.nodes, si.value);
            session_play(s, m, NULL);
            ply++;
            turn_start = now_ms();
            continue;
        }
        if (!read_line(in, line, sizeof line)) {
            rc = p == PLAYER_TERMINAL ? 0 : 1;
            if (rc)
                fprintf(log, "ply codecup: input ended mid-game\n");
            break;
        }
        turn_start = now_ms();
        if (!strcmp(line, "Quit")) {
            rc = 0;
            break;
        }
        if (!line[0])
            continue;
        if (me < 0) {
            if (!strcmp(line, "Start")) {
                me = p;
                continue;
            }
            /* the opponent moved first: we are the other player */
            me = p == 0 ? 1 : 0;
        }
        if (p == PLAYER_TERMINAL) {
            fprintf(log, "ply codecup: move '%s' after the end of the game\n",
                    line);
            break;
        }
        if (session_play_text(s, line, &err)) {
            fprintf(log, "ply codecup: bad move '%s': %s\n", line, err.msg);
            break;
        }
        ply++;
    }
    if (rc == 0 && me >= 0)
        fprintf(log, "ply codecup: %d plies, %lld of %lld ms used\n", ply,
                (long long)used, (long long)total_ms);
    session_free(s);
    free(work);
    return rc;
}
