/* maps.c — the reference server's fixed maps m1..m6 and its parser for
 * literal maps (two characters per cell, @1..@4 for the starts).
 *
 * The six layouts are data from the reference server (ornicar/vindinium,
 * app/Maps.scala): the official training maps, needed for compatibility.
 * Parsing follows StringMapParser (shared/rules/vindinium.md §2.2): drop
 * leading and trailing empty lines, width = longest line / 2, pad lines
 * and rows to a square, respawn points mirrored from hero 1's start. */
#include <stdlib.h>
#include <string.h>

#include "vindinium.h"

const char *const vd_map_names[] = {"m1", "m2", "m3", "m4", "m5", "m6",
                                    NULL};

static const char *const fixed_maps[] = {
    /* m1 */
    "##@1    ####    @4##\n"
    "      ########\n"
    "        ####\n"
    "    []        []\n"
    "$-    ##    ##    $-\n"
    "$-    ##    ##    $-\n"
    "    []        []\n"
    "        ####  @3\n"
    "      ########\n"
    "##@2    ####      ##\n",
    /* m2 */
    "########################\n"
    "########        ########\n"
    "####$-            $-####\n"
    "####  @1        @4  ####\n"
    "##    []  $-$-  []    ##\n"
    "##    ##  ####  ##    ##\n"
    "##    ##  ####  ##    ##\n"
    "##    []  $-$-  []    ##\n"
    "####  @2        @3  ####\n"
    "####$-            $-####\n"
    "########        ########\n"
    "########################\n",
    /* m3 */
    "          ##############\n"
    "          ##  $-  $-  ##\n"
    "          ##  $-  $-  ##\n"
    "          ##  $-  $-  ##\n"
    "          ##  $-  $-  ##\n"
    "\n"
    "\n"
    "\n"
    "            []              []\n"
    "##########  ##################\n"
    "$-                    $-\n"
    "##########  ####  ############\n"
    "@1  @2                            @3  @4\n"
    "            ################\n"
    "$-  $-                            $-  $-\n",
    /* m4 */
    "####################################\n"
    "################$-$-################\n"
    "##########@1[]##    ##[]@4##########\n"
    "##########  ##        ##  ##########\n"
    "######$-    ####    ####    $-######\n"
    "##########                ##########\n"
    "########                    ########\n"
    "######    ##  ########  ##    ######\n"
    "######  $-##  ########  ##$-  ######\n"
    "######  $-##  ########  ##$-  ######\n"
    "######    ##  ########  ##    ######\n"
    "########                    ########\n"
    "##########                ##########\n"
    "######$-    ####    ####    $-######\n"
    "##########  ##        ##  ##########\n"
    "##########@2[]##    ##[]@3##########\n"
    "################$-$-################\n"
    "####################################\n",
    /* m5 */
    "    ########@1        @4########\n"
    "      ######            ######\n"
    "        ##    $-    $-    ##\n"
    "##      ##    ##    ##    ##      ##\n"
    "[]##$-                        $-##[]\n"
    "  $-                            $-\n"
    "    ####  ##            ##  ####\n"
    "          $-##  ####  ##$-\n"
    "      ########$-####$-########\n"
    "      ########$-####$-########\n"
    "          $-##  ####  ##$-\n"
    "    ####  ##            ##  ####\n"
    "  $-                            $-\n"
    "[]##$-                        $-##[]\n"
    "##      ##    ##    ##    ##      ##\n"
    "        ##    $-    $-    ##\n"
    "      ######            ######\n"
    "    ########@2        @3########\n",
    /* m6 */
    "      ##    ########    ##\n"
    "  ##      ##  ####  ##      ####\n"
    "    ##\n"
    "  ##    ##$-##    ##$-##    ##\n"
    "  []    ##@1        @4##    []\n"
    "      ##                ##\n"
    "  ##  ##                ##  ##\n"
    "  ####                    ####\n"
    "  ####                    ####\n"
    "  ##  ##                ##  ##\n"
    "      ##                ##\n"
    "  []    ##@2        @3##    []\n"
    "  ##    ##$-##    ##$-##    ##\n"
    "    ##\n"
    "  ##      ##  ####  ##      ##\n"
    "      ##    ########    ##\n",
};

int vd_load_fixed(Vd *v, int index, PlyError *err)
{
    if (index < 0 || index >= (int)(sizeof fixed_maps / sizeof *fixed_maps))
        return ply_fail(err, "vindinium: no fixed map #%d", index + 1);
    return vd_parse_map(v, fixed_maps[index], err);
}

enum { MAX_LINES = 256 };

int vd_parse_map(Vd *v, const char *text, PlyError *err)
{
    /* split into lines (a trailing '\r' is dropped) */
    const char *ls[MAX_LINES];
    int ll[MAX_LINES], nl = 0;
    const char *p = text;
    for (;;) {
        const char *e = strchr(p, '\n');
        int len = e ? (int)(e - p) : (int)strlen(p);
        if (len > 0 && p[len - 1] == '\r')
            len--;
        if (nl == MAX_LINES)
            return ply_fail(err, "map: more than %d lines", MAX_LINES);
        ls[nl] = p;
        ll[nl++] = len;
        if (!e)
            break;
        p = e + 1;
    }
    int first = 0, last = nl - 1;
    while (first <= last && ll[first] == 0)
        first++;
    while (last >= first && ll[last] == 0)
        last--;
    if (first > last)
        return ply_fail(err, "map: empty");
    int longest = 0;
    for (int i = first; i <= last; i++)
        if (ll[i] > longest)
            longest = ll[i];
    int w = longest / 2;
    if (w < 2 || w > VD_MAX)
        return ply_fail(err, "map: width %d cells (2..%d)", w, VD_MAX);
    if (longest % 2)
        return ply_fail(err, "map: a line of odd length %d (2 characters "
                        "per cell)", longest);
    if (last - first + 1 > w)
        return ply_fail(err, "map: %d rows but only %d columns",
                        last - first + 1, w);
    memset(v, 0, sizeof *v);
    v->size = (uint8_t)w;
    int found[VD_HEROES] = {0}, mines = 0;
    for (int r = 0; r < last - first + 1; r++) {
        const char *s = ls[first + r];
        for (int c = 0; 2 * c < ll[first + r]; c++) {
            char a = s[2 * c], b = s[2 * c + 1];
            int t;
            if (a == ' ' && b == ' ')
                t = VD_AIR;
            else if (a == '#' && b == '#')
                t = VD_WALL;
            else if (a == '[' && b == ']')
                t = VD_TAVERN;
            else if (a == '$')
                t = b >= '1' && b <= '4' ? VD_MINE + 1 + (b - '1') : VD_MINE;
            else if (a == '@' && b >= '1' && b <= '4') {
                int h = b - '1';
                if (found[h])
                    return ply_fail(err, "map: hero @%c appears twice", b);
                found[h] = 1;
                v->hero[h].x = (uint8_t)r;
                v->hero[h].y = (uint8_t)c;
                t = VD_AIR;
            } else
                return ply_fail(err, "map: bad cell '%c%c' at row %d, "
                                "column %d", a, b, r, c);
            mines += t >= VD_MINE;
            v->tile[r * w + c] = (uint8_t)t;
        }
    }
    for (int h = 0; h < VD_HEROES; h++)
        if (!found[h])
            return ply_fail(err, "map: hero @%d is missing (need @1..@4)",
                            h + 1);
    if (mines > VD_MAX_MINES)
        return ply_fail(err, "map: %d mines (at most %d)", mines,
                        VD_MAX_MINES);
    /* Game.spawnPosOf: every respawn point is mirrored from hero 1's
     * start, whatever the map says. */
    int x = v->hero[0].x, y = v->hero[0].y, m = w - 1;
    const int sx[4] = {x, m - x, m - x, x}, sy[4] = {y, y, m - y, m - y};
    for (int h = 0; h < VD_HEROES; h++) {
        v->hero[h].sx = (uint8_t)sx[h];
        v->hero[h].sy = (uint8_t)sy[h];
        v->hero[h].life = VD_MAX_LIFE;
    }
    vd_refresh(v);
    return 0;
}
