/* status.c — go's GTP extras: which stones are alive, dead or in seki
 * (final_status_list), the moves that clean up dead stones
 * (kgs-genmove_cleanup), and a free handicap as a setup string.
 *
 * Status comes from ownership: GO_STATUS_PLAYOUTS light playouts (the
 * game's own, seeded) from the position, each scored by area; a point is
 * owned by the colour holding it at the end. A group is dead when, over
 * its stones, the opponent owns them more often than its own colour does.
 * Seki is found statically, in its common shapes (playouts, which fill
 * shared liberties blindly, cannot see it): two groups of opposite
 * colours with two liberties each, at least one shared, any other being
 * the group's own one-point eye; both are in seki whatever the playouts
 * said. This is an estimate, as any program's is; on a finished game
 * (dead stones inside settled territory) it is reliable. Atari-go has no
 * dead stones: every stone is alive. */
#include <stdlib.h>
#include <string.h>

#include "../../core/rng.h"
#include "go.h"

enum { GO_STATUS_PLAYOUTS = 200 };

static const int nbr[4] = {1, -1, GO_STRIDE, -GO_STRIDE};

/* Area ownership of a finished board: 1 black, 2 white, 0 neither. */
static void area_owner(const GoState *s, uint8_t *owner)
{
    uint16_t stack[GO_PTS], region[GO_PTS];
    uint8_t seen[GO_PTS];
    memset(seen, 0, sizeof seen);
    memset(owner, 0, GO_PTS);
    for (int p = 0; p < GO_PTS; p++) {
        int c = s->color[p];
        if (c == GO_BLACK || c == GO_WHITE) {
            owner[p] = (uint8_t)c;
            continue;
        }
        if (c != GO_EMPTY || seen[p])
            continue;
        int n = 0, m = 0, reach = 0;
        stack[n++] = (uint16_t)p;
        seen[p] = 1;
        while (n) {
            int q = stack[--n];
            region[m++] = (uint16_t)q;
            for (int d = 0; d < 4; d++) {
                int r = q + nbr[d], rc = s->color[r];
                if (rc == GO_EMPTY && !seen[r]) {
                    seen[r] = 1;
                    stack[n++] = (uint16_t)r;
                } else if (rc == GO_BLACK || rc == GO_WHITE) {
                    reach |= rc;
                }
            }
        }
        if (reach == GO_BLACK || reach == GO_WHITE)
            for (int i = 0; i < m; i++)
                owner[region[i]] = (uint8_t)reach;
    }
}

/* How often each point ends Black's (b) and White's (w). */
static int ownership(const GoState *s, uint64_t seed, uint16_t *b,
                     uint16_t *w)
{
    GoState *t = malloc(sizeof *t);
    uint8_t *owner = malloc(GO_PTS);
    if (!t || !owner) {
        free(t);
        free(owner);
        return -1;
    }
    memset(b, 0, sizeof *b * GO_PTS);
    memset(w, 0, sizeof *w * GO_PTS);
    Rng rng;
    rng_seed(&rng, seed ^ 0x5eed5747u);
    for (int i = 0; i < GO_STATUS_PLAYOUTS; i++) {
        memcpy(t, s, sizeof *t);
        /* the light policy, whatever the game's playout option: the
         * heavy one saves stones in atari, which keeps dead stones
         * alive in the count */
        t->light = 1;
        if (!t->over)
            game_go.playout(t, &rng);
        area_owner(t, owner);
        for (int p = 0; p < GO_PTS; p++) {
            b[p] = (uint16_t)(b[p] + (owner[p] == GO_BLACK));
            w[p] = (uint16_t)(w[p] + (owner[p] == GO_WHITE));
        }
    }
    free(t);
    free(owner);
    return 0;
}

typedef struct Status {
    uint8_t st[GO_PTS];     /* per stone: GTP_ALIVE, GTP_DEAD, GTP_SEKI */
    uint16_t own[2][GO_PTS];
} Status;

/* The stones of the group at p (a list ending at p again). */
static int group_stones(const GoState *s, int p, uint16_t *out)
{
    int n = 0, q = p;
    do {
        out[n++] = (uint16_t)q;
        q = s->next[q];
    } while (q != p && n < GO_PTS);
    return n;
}

/* Liberties of the group at p (each once) into libs; their count. */
static int liberties(const GoState *s, int p, uint16_t *libs)
{
    uint16_t stones[GO_PTS];
    uint8_t seen[GO_PTS];
    memset(seen, 0, sizeof seen);
    int n = group_stones(s, p, stones), k = 0;
    for (int i = 0; i < n; i++)
        for (int d = 0; d < 4; d++) {
            int l = stones[i] + nbr[d];
            if (s->color[l] == GO_EMPTY && !seen[l]) {
                seen[l] = 1;
                libs[k++] = (uint16_t)l;
            }
        }
    return k;
}

/* A point whose neighbours are all c's stones or the edge. */
static int own_eye(const GoState *s, int p, int c)
{
    for (int d = 0; d < 4; d++) {
        int q = s->color[p + nbr[d]];
        if (q != c && q != GO_EDGE)
            return 0;
    }
    return 1;
}

static int judge(const GoState *s, uint64_t seed, Status *z)
{
    memset(z->st, GTP_ALIVE, sizeof z->st);
    if (s->kind == GO_KIND_ATARI)
        return 0;
    if (ownership(s, seed, z->own[0], z->own[1]))
        return -1;
    uint16_t stones[GO_PTS];
    uint8_t done[GO_PTS];
    memset(done, 0, sizeof done);
    /* dead or alive, a group at a time */
    for (int p = 0; p < GO_PTS; p++) {
        int c = s->color[p];
        if ((c != GO_BLACK && c != GO_WHITE) || done[p])
            continue;
        int n = group_stones(s, p, stones);
        long mine = 0, theirs = 0;
        for (int i = 0; i < n; i++) {
            mine += z->own[c - 1][stones[i]];
            theirs += z->own[2 - c][stones[i]];
            done[stones[i]] = 1;
        }
        uint8_t v = theirs > mine ? GTP_DEAD : GTP_ALIVE;
        for (int i = 0; i < n; i++)
            z->st[stones[i]] = v;
    }
    /* seki, the common shapes: two groups of opposite colours with two
     * liberties each, sharing one or both, where a liberty not shared is
     * the group's own eye: whoever fills a shared liberty puts itself in
     * atari. Playouts, which do not know that, decide nothing there. */
    uint16_t la[GO_PTS], lb[GO_PTS];
    for (int p = 0; p < GO_PTS; p++) {
        int c = s->color[p];
        if ((c != GO_BLACK && c != GO_WHITE) || s->root[p] != p ||
            liberties(s, p, la) != 2)
            continue;
        for (int i = 0; i < 2; i++)
            for (int d = 0; d < 4; d++) {
                int q = la[i] + nbr[d];
                if (s->color[q] != 3 - c || liberties(s, q, lb) != 2)
                    continue;
                int shared = 0, ok = 1;
                for (int j = 0; j < 2; j++) {
                    int in_b = la[j] == lb[0] || la[j] == lb[1];
                    int in_a = lb[j] == la[0] || lb[j] == la[1];
                    shared += in_b;
                    if (!in_b && !own_eye(s, la[j], c))
                        ok = 0;
                    if (!in_a && !own_eye(s, lb[j], 3 - c))
                        ok = 0;
                }
                if (!shared || !ok)
                    continue;
                int k = group_stones(s, p, stones);
                for (int j = 0; j < k; j++)
                    z->st[stones[j]] = GTP_SEKI;
                k = group_stones(s, q, stones);
                for (int j = 0; j < k; j++)
                    z->st[stones[j]] = GTP_SEKI;
            }
    }
    return 0;
}

int go_gtp_stones(const void *st, int player, int status, uint64_t seed,
                     Move *out, int max)
{
    const GoState *s = st;
    Status *z = NULL;
    if (status >= 0) {
        z = malloc(sizeof *z);
        if (!z || judge(s, seed, z)) {
            free(z);
            return -1;
        }
    }
    int n = 0;
    for (int y = s->size - 1; y >= 0; y--)
        for (int x = 0; x < s->size; x++) {
            int p = go_point(x, y), c = s->color[p];
            if ((c != GO_BLACK && c != GO_WHITE) ||
                (player >= 0 && c != player + 1) ||
                (z && z->st[p] != status))
                continue;
            if (n >= max) {
                free(z);
                return -1;
            }
            out[n++] = (Move)p;
        }
    free(z);
    return n;
}

/* Cleanup moves: liberties of the opponent's dead groups, a capture
 * (the group's last liberty) first, then fewer liberties left first; when
 * no liberty is playable, any move in own area that fills no own eye (the
 * dead stones must come off by being surrounded further). */
int go_gtp_cleanup_moves(const void *st, uint64_t seed, Move *out,
                            int max)
{
    const GoState *s = st;
    if (s->over || s->kind == GO_KIND_ATARI)
        return 0;
    int me = s->side + 1, opp = 3 - me;
    Status *z = malloc(sizeof *z);
    Move *legal = malloc(sizeof *legal * (GO_MAXN * GO_MAXN + 1));
    int *score = calloc(GO_PTS, sizeof *score);
    uint16_t *libs = malloc(sizeof *libs * GO_PTS);
    int n = -1;
    if (!z || !legal || !score || !libs || judge(s, seed, z))
        goto out;
    int any_dead = 0;
    uint8_t done[GO_PTS];
    memset(done, 0, sizeof done);
    for (int p = 0; p < GO_PTS; p++) {
        if (s->color[p] != opp || z->st[p] != GTP_DEAD || done[p])
            continue;
        any_dead = 1;
        uint16_t stones[GO_PTS];
        int k = group_stones(s, p, stones);
        for (int i = 0; i < k; i++)
            done[stones[i]] = 1;
        int nl = liberties(s, p, libs);
        for (int i = 0; i < nl; i++)
            score[libs[i]] += nl == 1 ? 1000 : 100 - nl;
    }
    n = 0;
    if (!any_dead)
        goto out;
    int nm = game_go.gen_moves(s, legal);
    /* the playable liberties, best first (a stable insertion sort) */
    for (int i = 0; i < nm; i++) {
        int p = (int)legal[i];
        if (p == GO_PASS || score[p] <= 0 || own_eye(s, p, me))
            continue;
        int j = n++;
        while (j > 0 && score[legal[j - 1]] < score[p]) {
            legal[j] = legal[j - 1];
            j--;
        }
        legal[j] = (Move)p;
    }
    if (n > max)
        n = max;
    memcpy(out, legal, sizeof *out * (size_t)n);
    if (n)
        goto out;
    for (int i = 0; i < nm && n < max; i++) {
        int p = (int)legal[i];
        if (p != GO_PASS && !own_eye(s, p, me) &&
            z->own[me - 1][p] * 2 > GO_STATUS_PLAYOUTS)
            out[n++] = (Move)p;
    }
out:
    free(z);
    free(legal);
    free(score);
    free(libs);
    return n;
}

int go_gtp_handicap_setup(const void *st, const Move *pts, int n,
                             char *buf, size_t len)
{
    const GoState *s = st;
    uint8_t board[GO_PTS];
    memcpy(board, s->color, sizeof board);
    for (int i = 0; i < n; i++) {
        if (pts[i] >= GO_PTS || board[pts[i]] != GO_EMPTY)
            return -1;
        board[pts[i]] = GO_BLACK;
    }
    size_t k = 0;
    if (len < (size_t)s->size * (s->size + 1) + 3)
        return -1;
    for (int y = s->size - 1; y >= 0; y--) {
        for (int x = 0; x < s->size; x++)
            buf[k++] = ".XO"[board[go_point(x, y)]];
        buf[k++] = y ? '/' : ' ';
    }
    buf[k++] = 'w';
    buf[k] = 0;
    return (int)k;
}
