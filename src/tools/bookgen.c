/* bookgen.c — computing an opening book with long searches (bookgen.h).
 *
 * Ply by ply, for each side apart: the positions of the side to move are
 * searched (a fresh bot each, so every search is alone and repeatable)
 * and only the move found is followed; the positions of the other sides
 * are expanded by every legal move. Positions are told apart by their
 * class key, the least hash over the images under the game's symmetries,
 * so one position of each class is searched; its move is then stored
 * for every image, mapped by sym_move. Images are made by replaying the
 * mapped moves from the start, which checks on the way that the game's
 * symmetries map legal play to legal play. */
#include "bookgen.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/session.h"
#include "../core/setup.h"
#include "../core/rng.h"
#include "../core/util.h"

typedef struct Node {
    Move seq[BOOKGEN_PLIES_MAX];
    int len, side;
    uint64_t ckey;
    /* a searched node */
    Move best;
    int value, ok;
    char error[sizeof ((PlyError *)0)->msg];
} Node;

typedef struct Gen {
    const GameVtbl *g;
    const char *options, *spec;
    uint64_t seed;
    int nsym;
    /* the searches of one ply */
    Node **todo;
    int ntodo, next, done;
    pthread_mutex_t mu;
    BookGenProgress progress;
    void *user;
    int ply;
} Gen;

/* Seen (side, class) pairs: open addressing, 0 is empty. */
typedef struct KeySet {
    uint64_t *slot;
    size_t cap, used;
} KeySet;

static int keyset_add(KeySet *t, uint64_t k)
{
    k |= 1;     /* never 0 */
    if ((t->used + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        uint64_t *slot = calloc(cap, sizeof *slot);
        if (!slot)
            return -1;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slot[i]) {
                size_t j = ply_mix64(t->slot[i]) & (cap - 1);
                while (slot[j])
                    j = (j + 1) & (cap - 1);
                slot[j] = t->slot[i];
            }
        free(t->slot);
        t->slot = slot;
        t->cap = cap;
    }
    size_t j = ply_mix64(k) & (t->cap - 1);
    for (; t->slot[j]; j = (j + 1) & (t->cap - 1))
        if (t->slot[j] == k)
            return 0;
    t->slot[j] = k;
    t->used++;
    return 1;
}

/* The image under symmetry k of the position after seq: the start, then
 * the mapped moves, each checked. */
static int replay(const Gen *G, const Move *seq, int len, int k, void *st,
                  PlyError *err)
{
    const GameVtbl *g = G->g;
    if (state_setup(g, st, G->options, NULL, 1, err))
        return -1;
    for (int i = 0; i < len; i++) {
        Move m = k ? g->sym_move(st, k, seq[i]) : seq[i];
        if (!state_is_legal(g, st, m))
            return ply_fail(err, "%s: symmetry %d maps move %d of a line "
                            "to an illegal move", g->info.name, k, i + 1);
        g->make(st, m);
    }
    return 0;
}

static int class_key(const Gen *G, const Move *seq, int len, void *st,
                     uint64_t *key, PlyError *err)
{
    uint64_t best = 0;
    for (int k = 0; k < G->nsym; k++) {
        if (replay(G, seq, len, k, st, err))
            return -1;
        uint64_t h = G->g->hash(st);
        if (k == 0 || h < best)
            best = h;
    }
    *key = best;
    return 0;
}

static void search_one(Gen *G, Node *nd)
{
    PlyError err = {{0}};
    void *st = state_alloc(G->g);
    Session *s = NULL;
    SearchInfo si;
    memset(&si, 0, sizeof si);
    if (!st) {
        snprintf(nd->error, sizeof nd->error, "out of memory");
        return;
    }
    if (replay(G, nd->seq, nd->len, 0, st, &err) ||
        !(s = session_new(G->g, G->options, G->spec, G->seed ^ nd->ckey,
                          &err)) ||
        session_set_state(s, st, &err) || session_go(s, NULL, 0, &err)) {
        snprintf(nd->error, sizeof nd->error, "%s", err.msg);
    } else {
        nd->best = session_wait(s, &si);
        nd->value = si.value;
        if (state_is_legal(G->g, st, nd->best))
            nd->ok = 1;
        else
            snprintf(nd->error, sizeof nd->error, "the bot found no move");
    }
    if (G->progress && nd->ok) {
        char setup[4096] = "", mv[64] = "";
        G->g->to_text(st, setup, sizeof setup);
        G->g->move_to_text(st, nd->best, mv, sizeof mv);
        pthread_mutex_lock(&G->mu);
        G->done++;
        G->progress(G->user, G->ply, nd->side, setup, mv, nd->value,
                    G->done, G->ntodo);
        pthread_mutex_unlock(&G->mu);
    }
    session_free(s);
    free(st);
}

static void *worker(void *arg)
{
    Gen *G = arg;
    for (;;) {
        pthread_mutex_lock(&G->mu);
        int i = G->next < G->ntodo ? G->next++ : -1;
        pthread_mutex_unlock(&G->mu);
        if (i < 0)
            return NULL;
        search_one(G, G->todo[i]);
    }
}

typedef struct Out {
    BookEntry e;
    size_t order;       /* first added wins among equal keys */
} Out;

static int cmp_out(const void *a, const void *b)
{
    const Out *x = a, *y = b;
    if (x->e.key != y->e.key)
        return x->e.key < y->e.key ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* Grows a node array by one; NULL when out of memory. */
static Node *push(Node **arr, int *n, int *cap)
{
    if (*n == *cap) {
        int c = *cap ? *cap * 2 : 64;
        Node *a = realloc(*arr, sizeof **arr * (size_t)c);
        if (!a)
            return NULL;
        *arr = a;
        *cap = c;
    }
    Node *nd = &(*arr)[(*n)++];
    memset(nd, 0, sizeof *nd);
    return nd;
}

int bookgen_run(const GameVtbl *g, const char *options, const char *spec,
                uint64_t seed, int plies, int jobs, int max_positions,
                BookGenProgress progress, void *user, BookEntry **out,
                int *n, BookGenStats *stats, PlyError *err)
{
    *out = NULL;
    *n = 0;
    memset(stats, 0, sizeof *stats);
    if (plies < 1 || plies > BOOKGEN_PLIES_MAX)
        return ply_fail(err, "plies must be 1 to %d", BOOKGEN_PLIES_MAX);
    if (jobs < 1 || jobs > BOOKGEN_JOBS_MAX)
        return ply_fail(err, "jobs must be 1 to %d", BOOKGEN_JOBS_MAX);
    if (g->info.flags & GAME_HIDDEN)
        return ply_fail(err, "%s has hidden information: a book of "
                        "positions would need what a player cannot see",
                        g->info.name);
    if (strstr(spec, "book="))
        return ply_fail(err, "the bot must search, not play a book: leave "
                        "book= out of its spec");
    Gen G = {.g = g, .options = options, .spec = spec, .seed = seed,
             .nsym = g->sym_move && g->nsym > 1 ? g->nsym : 1,
             .progress = progress, .user = user};
    pthread_mutex_init(&G.mu, NULL);
    void *st = state_alloc(g);
    Move *moves = malloc(sizeof *moves * (size_t)g->info.max_moves);
    Node *cur = NULL, *nxt = NULL;
    int ncur = 0, ccur = 0, nnxt = 0, cnxt = 0;
    Node **todo = NULL;
    Out *res = NULL;
    size_t nres = 0, cres = 0;
    KeySet seen = {0};
    int rc = -1;
    if (!st || !moves) {
        ply_fail(err, "out of memory");
        goto done;
    }
    {
        /* the options and the spec, checked before any work */
        Session *s = session_new(g, options, spec, seed, err);
        if (!s)
            goto done;
        session_free(s);
    }
    if (replay(&G, NULL, 0, 0, st, err))
        goto done;
    int nplayers = state_seats(g, st, NULL);
    for (int side = 0; side < nplayers; side++) {
        Node *nd = push(&cur, &ncur, &ccur);
        if (!nd) {
            ply_fail(err, "out of memory");
            goto done;
        }
        nd->side = side;
        if (class_key(&G, nd->seq, 0, st, &nd->ckey, err))
            goto done;
    }
    for (int ply = 0; ply < plies && ncur; ply++) {
        /* the searches of this ply */
        free(todo);
        if (!(todo = malloc(sizeof *todo * (size_t)ncur))) {
            ply_fail(err, "out of memory");
            goto done;
        }
        int ntodo = 0;
        for (int i = 0; i < ncur; i++) {
            if (replay(&G, cur[i].seq, cur[i].len, 0, st, err))
                goto done;
            int p = g->to_move(st);
            if (p == PLAYER_CHANCE) {
                ply_fail(err, "%s: a chance move at ply %d; books follow "
                         "players' moves only", g->info.name, ply);
                goto done;
            }
            if (p == cur[i].side)
                todo[ntodo++] = &cur[i];
        }
        if (stats->searched + ntodo > max_positions) {
            ply_fail(err, "the book would search more than %d positions "
                     "(%d by ply %d): fewer plies, or raise the bound",
                     max_positions, stats->searched + ntodo, ply);
            goto done;
        }
        G.todo = todo;
        G.ntodo = ntodo;
        G.next = G.done = 0;
        G.ply = ply;
        pthread_t th[BOOKGEN_JOBS_MAX];
        int started = 0;
        for (int i = 1; i < jobs && i < ntodo; i++, started++)
            if (pthread_create(&th[started], NULL, worker, &G))
                break;
        worker(&G);
        for (int i = 0; i < started; i++)
            pthread_join(th[i], NULL);
        stats->searched += ntodo;
        stats->per_ply[ply] = ntodo;
        /* the searched moves into the table, under every symmetry */
        for (int i = 0; i < ntodo; i++) {
            Node *nd = todo[i];
            if (!nd->ok) {
                ply_fail(err, "a search at ply %d failed: %s", ply,
                         nd->error);
                goto done;
            }
            for (int k = 0; k < G.nsym; k++) {
                if (replay(&G, nd->seq, nd->len, k, st, err))
                    goto done;
                Move m = k ? g->sym_move(st, k, nd->best) : nd->best;
                if (!state_is_legal(g, st, m)) {
                    ply_fail(err, "%s: symmetry %d maps a book move to an "
                             "illegal one", g->info.name, k);
                    goto done;
                }
                if (m > UINT32_MAX) {
                    ply_fail(err, "%s: a move does not fit a book entry",
                             g->info.name);
                    goto done;
                }
                if (nres == cres) {
                    size_t c = cres ? cres * 2 : 256;
                    Out *r = realloc(res, sizeof *r * c);
                    if (!r) {
                        ply_fail(err, "out of memory");
                        goto done;
                    }
                    res = r;
                    cres = c;
                }
                res[nres].e.key = g->hash(st);
                res[nres].e.move = (uint32_t)m;
                res[nres].order = nres;
                nres++;
            }
        }
        if (ply + 1 == plies)
            break;
        /* the next ply: the book's move after a searched position, every
         * move after the others' */
        nnxt = 0;
        for (int i = 0; i < ncur; i++) {
            Node *nd = &cur[i];
            if (replay(&G, nd->seq, nd->len, 0, st, err))
                goto done;
            int p = g->to_move(st);
            if (p == PLAYER_TERMINAL)
                continue;
            int k = 1;
            if (p == nd->side)
                moves[0] = nd->best;
            else
                k = g->gen_moves(st, moves);
            for (int j = 0; j < k; j++) {
                Node *c = push(&nxt, &nnxt, &cnxt);
                if (!c) {
                    ply_fail(err, "out of memory");
                    goto done;
                }
                memcpy(c->seq, nd->seq, sizeof c->seq);
                c->seq[nd->len] = moves[j];
                c->len = nd->len + 1;
                c->side = nd->side;
                if (class_key(&G, c->seq, c->len, st, &c->ckey, err))
                    goto done;
                int fresh = keyset_add(&seen, ply_mix64(c->ckey ^
                                                        (uint64_t)c->side));
                if (fresh < 0) {
                    ply_fail(err, "out of memory");
                    goto done;
                }
                if (!fresh)
                    nnxt--;
            }
        }
        Node *t = cur;
        cur = nxt;
        nxt = t;
        int tc = ccur;
        ccur = cnxt;
        cnxt = tc;
        ncur = nnxt;
    }
    /* sorted by key; among equal keys (a position symmetric to itself)
     * the first stored move */
    qsort(res, nres, sizeof *res, cmp_out);
    BookEntry *e = malloc(sizeof *e * (nres ? nres : 1));
    if (!e) {
        ply_fail(err, "out of memory");
        goto done;
    }
    int ne = 0;
    for (size_t i = 0; i < nres; i++)
        if (!ne || e[ne - 1].key != res[i].e.key)
            e[ne++] = res[i].e;
    *out = e;
    *n = ne;
    stats->entries = ne;
    rc = 0;
done:
    pthread_mutex_destroy(&G.mu);
    free(st);
    free(moves);
    free(cur);
    free(nxt);
    free(todo);
    free(res);
    free(seen.slot);
    return rc;
}
