# ugi-noise.awk — seeded random UGI-like input: real commands mixed with
# wrong arguments, huge numbers and junk, for tests/match.sh.
# Usage: awk -v seed=N -v lines=N -f ugi-noise.awk
BEGIN {
    srand(seed)
    n = split("ugi isready uginewgame position startpos fen moves go nodes " \
              "depth movetime infinite p1time p2time p1inc p2inc stop query " \
              "gameover p1turn result setoption name value game gameoptions " \
              "bot seed houses seeds kalah random 1 2 3 4 5 6 7 0 -1 " \
              "99999999999999999999999 S:4,4,4,4,4,4,0:4,4,4,4,4,4,0 N:0 " \
              "houses=3 houses=99 x= = ,,, \t %s%n%s \\ \"", w, " ")
    for (i = 0; i < lines; i++) {
        k = int(rand() * 8)
        s = ""
        for (j = 0; j < k; j++)
            s = s (j ? " " : "") w[1 + int(rand() * n)]
        if (rand() < 0.05)
            s = s sprintf("%c%c", 1 + int(rand() * 255), 1 + int(rand() * 255))
        print s
    }
    print "quit"
}
