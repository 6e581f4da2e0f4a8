/* slurm.c — the sbatch scripts of ply match --slurm: a job array whose
 * task I plays shard I/N into DIR/shard-I.jsonl (with --resume, so a
 * requeued or restarted task plays only what is missing), a merge job
 * that runs after every task succeeded, and submit.sh tying them. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "slurm.h"

void shell_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* dir: created, or existing and empty. */
static int make_dir(const char *dir, PlyError *err)
{
    if (!mkdir(dir, 0777))
        return 0;
    if (errno != EEXIST)
        return ply_fail(err, "cannot create %s: %s", dir, strerror(errno));
    DIR *d = opendir(dir);
    if (!d)
        return ply_fail(err, "%s: %s", dir, strerror(errno));
    struct dirent *e;
    int empty = 1;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            empty = 0;
    closedir(d);
    if (!empty)
        return ply_fail(err, "%s is not empty (it may hold another match's "
                        "records): choose another --out DIR", dir);
    return 0;
}

static FILE *open_script(const char *dir, const char *name, char *path,
                         size_t n, PlyError *err)
{
    if ((size_t)snprintf(path, n, "%s/%s", dir, name) >= n) {
        ply_fail(err, "%s: path too long", dir);
        return NULL;
    }
    FILE *f = fopen(path, "w");
    if (!f)
        ply_fail(err, "cannot write %s: %s", path, strerror(errno));
    return f;
}

static int close_script(FILE *f, const char *path, PlyError *err)
{
    int bad = ferror(f);
    if (fclose(f) || bad)
        return ply_fail(err, "writing %s failed", path);
    if (chmod(path, 0755))
        return ply_fail(err, "chmod %s: %s", path, strerror(errno));
    return 0;
}

/* PLY_BIN=${PLY_BIN:-'/path/to/ply'}: the same binary on every node (a
 * shared file system), unless the environment names another. */
static void ply_line(FILE *f, const SlurmJob *j)
{
    fputs("PLY_BIN=${PLY_BIN:-", f);
    shell_quote(f, j->ply);
    fputs("}\nDIR=", f);
    shell_quote(f, j->dir);
    fputc('\n', f);
}

int slurm_write(const SlurmJob *j, PlyError *err)
{
    if (j->shards < 1)
        return ply_fail(err, "--slurm needs at least one shard");
    if (j->dir[0] != '/' || j->ply[0] != '/' || j->cwd[0] != '/')
        return ply_fail(err, "slurm: paths must be absolute");
    /* #SBATCH lines and the merge's file list split at blanks */
    const char *plain = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                        "0123456789/._-+,:@=";
    if (j->dir[strspn(j->dir, plain)])
        return ply_fail(err, "--out %s: use a directory name of letters, "
                        "digits and /._-+,:@= only (it goes into #SBATCH "
                        "lines)", j->dir);
    if (j->cwd[strspn(j->cwd, plain)])
        return ply_fail(err, "the current directory %s has characters "
                        "#SBATCH --chdir cannot take: run from another",
                        j->cwd);
    if (make_dir(j->dir, err))
        return -1;
    char path[4096];
    FILE *f = open_script(j->dir, "shard.sbatch", path, sizeof path, err);
    if (!f)
        return -1;
    fprintf(f, "#!/bin/sh\n"
            "# ply match in %d shards: array task I plays shard I/%d into\n"
            "# $DIR/shard-I.jsonl (--resume: a requeued task plays only "
            "what is missing).\n"
            "# Written by ply match --slurm; submit with submit.sh.\n"
            "#SBATCH --job-name=ply-match\n"
            "#SBATCH --array=1-%d\n"
            "#SBATCH --cpus-per-task=%d\n"
            "#SBATCH --ntasks=1\n"
            "#SBATCH --output=%s/shard-%%a.log\n"
            "#SBATCH --chdir=%s\n"
            "set -eu\n", j->shards, j->shards, j->shards, j->cpus,
            j->dir, j->cwd);
    ply_line(f, j);
    fputs("I=${SLURM_ARRAY_TASK_ID:?not in a Slurm job array}\n"
          "exec \"$PLY_BIN\" match", f);
    for (int i = 0; i < j->nargs; i++) {
        fputc(' ', f);
        shell_quote(f, j->args[i]);
    }
    fprintf(f, " \\\n    --shard \"$I/%d\" --out \"$DIR/shard-$I.jsonl\" "
            "--resume\n", j->shards);
    if (close_script(f, path, err))
        return -1;

    f = open_script(j->dir, "merge.sbatch", path, sizeof path, err);
    if (!f)
        return -1;
    fprintf(f, "#!/bin/sh\n"
            "# The statistics of the whole match from the shards' records\n"
            "# (runs after every task of shard.sbatch succeeded).\n"
            "#SBATCH --job-name=ply-merge\n"
            "#SBATCH --ntasks=1\n"
            "#SBATCH --output=%s/merge.log\n"
            "#SBATCH --chdir=%s\n"
            "set -eu\n", j->dir, j->cwd);
    ply_line(f, j);
    fprintf(f, "files=\n"
            "i=1\n"
            "while [ \"$i\" -le %d ]; do\n"
            "    files=\"$files $DIR/shard-$i.jsonl\"\n"
            "    i=$((i + 1))\n"
            "done\n", j->shards);
    const char *sp = j->sprt ? " --sprt " : "";
    fprintf(f, "# word splitting of $files: DIR has no blanks or globs "
            "(checked when written)\n"
            "\"$PLY_BIN\" match --merge $files%s", sp);
    if (j->sprt)
        shell_quote(f, j->sprt);
    fprintf(f, " > \"$DIR/summary.txt\"\n"
            "\"$PLY_BIN\" match --merge $files --json%s", sp);
    if (j->sprt)
        shell_quote(f, j->sprt);
    fputs(" > \"$DIR/summary.json\"\ncat \"$DIR/summary.txt\"\n", f);
    if (close_script(f, path, err))
        return -1;

    f = open_script(j->dir, "submit.sh", path, sizeof path, err);
    if (!f)
        return -1;
    fputs("#!/bin/sh\n"
          "# Submits the shards as a job array and the merge after them.\n"
          "# Extra sbatch options: SBATCH_PARTITION, SBATCH_TIMELIMIT, "
          "SBATCH_ACCOUNT...\n"
          "set -eu\n", f);
    fputs("DIR=", f);
    shell_quote(f, j->dir);
    fputs("\nSBATCH=${SBATCH:-sbatch}\n"
          "jid=$($SBATCH --parsable \"$DIR/shard.sbatch\")\n"
          "jid=${jid%%;*}\n"
          "mid=$($SBATCH --parsable --dependency=afterok:$jid "
          "\"$DIR/merge.sbatch\")\n"
          "mid=${mid%%;*}\n"
          "echo \"shards: job array $jid; merge: job $mid, "
          "writes $DIR/summary.txt\"\n", f);
    return close_script(f, path, err);
}
