# Ply — one non-recursive Makefile.
#   make                 release build of ./ply and the library (make lib)
#   make MODE=debug      debug build (-O0 -g, game invariant checks)
#   make MODE=sanitize   ASan + UBSan build
#   make MODE=tsan       ThreadSanitizer build (threaded bots, the server)
#   make fuzz            the libFuzzer targets (build/fuzz/fuzz_*)
#   make test            every test (unit, conformance, perft, CLI, fuzz)
#   make test-slow       deeper perft and longer runs
#   make golden          rewrite tests/golden (seeded playthroughs)
#   make run             the main job: the web page (ply serve), its URL
#   make SERVER=0        without the Vindinium server and client (no
#                        libmicrohttpd, SQLite or libcurl); in build/MODE-noserver
#   make lib             the public library (include/ply.h): libply.so.1
#                        and libply.a in build/MODE/lib
#   make install         ply, libply, ply.h, ply.pc and the man pages under
#                        DESTDIR/PREFIX (/usr/local); make uninstall
MODE ?= release
SERVER ?= 1
BUILD := build/$(MODE)
CC ?= cc
CFLAGS_COMMON := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter \
	-Wshadow -Wstrict-prototypes -MMD -MP -pthread
ifeq ($(MODE),release)
  CFLAGS_MODE := -O2 -march=native -DNDEBUG -g
else ifeq ($(MODE),debug)
  CFLAGS_MODE := -O0 -g3 -DPLY_DEBUG
else ifeq ($(MODE),sanitize)
  CFLAGS_MODE := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined -DPLY_DEBUG
  LDFLAGS_MODE := -fsanitize=address,undefined
else ifeq ($(MODE),tsan)
  CFLAGS_MODE := -O1 -g -fsanitize=thread -fno-omit-frame-pointer -DPLY_DEBUG
  LDFLAGS_MODE := -fsanitize=thread
else
  $(error MODE must be release, debug, sanitize or tsan)
endif
CFLAGS := $(CFLAGS_COMMON) $(CFLAGS_MODE) $(EXTRA_CFLAGS)
LDLIBS := -lmicrohttpd -ljansson -lsqlite3 -lcurl -lm -pthread
# The Vindinium server and client, and the tests that need them.
SERVER_SRC := src/apps/vindinium/server.c src/apps/vindinium/client.c \
	src/apps/web/web.c src/apps/http/http.c
SERVER_TESTS := test_vdserver test_vdclient test_web
ifeq ($(SERVER),0)
  BUILD := build/$(MODE)-noserver
  CFLAGS += -DPLY_SERVER=0
  LDLIBS := -ljansson -lm -pthread
else ifneq ($(SERVER),1)
  $(error SERVER must be 0 or 1)
endif

LIB_SRC := $(sort $(wildcard src/core/*.c src/games/*.c src/games/*/*.c \
	src/search/*.c src/tools/*.c src/proto/*.c src/apps/*/*.c src/cli/*.c \
	src/lib/*.c))
LIB_SRC := $(filter-out src/cli/main.c,$(LIB_SRC))
ifeq ($(SERVER),0)
  LIB_SRC := $(filter-out $(SERVER_SRC),$(LIB_SRC))
endif
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
# The web page (web/) built into `ply serve`: a generated table of files.
WEB_ASSETS_C := build/web_assets.c
WEB_FILES := $(shell find web -type f ! -path '*/node_modules/*' 2>/dev/null)
ifneq ($(SERVER),0)
  LIB_OBJ += $(BUILD)/web_assets.o
endif
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
ifeq ($(SERVER),0)
  TEST_SRC := $(filter-out $(SERVER_TESTS:%=tests/unit/%.c),$(TEST_SRC))
endif
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
DEPS_STAMP := build/.deps-ok

.PHONY: all test test-slow run clean deps fuzz golden lib install uninstall \
	test-zrf test-zrf-cc
all: ply lib

# Debian packages the build needs (installed once; see the script).
$(DEPS_STAMP): scripts/install-deps.sh
	@sh scripts/install-deps.sh
	@mkdir -p build && touch $@
deps: $(DEPS_STAMP)

$(BUILD)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# The version string: `git describe` written to a header only when it
# changes, so a new commit rebuilds version.o and nothing else.
VERSION_H := $(BUILD)/version_git.h
.PHONY: FORCE
$(VERSION_H): FORCE
	@mkdir -p $(dir $@)
	@v=$$(git describe --always --dirty 2>/dev/null); \
	if [ -n "$$v" ]; then echo "#define PLY_VERSION_GIT \"$$v\"" > $@.tmp; \
	else : > $@.tmp; fi; \
	cmp -s $@.tmp $@ || mv -f $@.tmp $@; rm -f $@.tmp
$(BUILD)/src/core/version.o: $(VERSION_H)
$(BUILD)/src/core/version.o: CFLAGS += -I$(BUILD) \
	-DPLY_VERSION_INC='"version_git.h"'

$(WEB_ASSETS_C): scripts/embed-web.sh $(WEB_FILES) $(wildcard web)
	@mkdir -p $(dir $@)
	sh scripts/embed-web.sh $@ web
$(BUILD)/web_assets.o: $(WEB_ASSETS_C) src/apps/web/web.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isrc -c $< -o $@

$(BUILD)/libply.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# readline (line editing in `ply play`) is linked into the binary only.
$(BUILD)/ply: $(BUILD)/src/cli/main.o $(BUILD)/libply.a
	$(CC) $(LDFLAGS_MODE) -o $@ $^ $(LDLIBS) -lreadline

ply: $(BUILD)/ply
	@if [ "$(MODE)" = release ] && [ "$(SERVER)" = 1 ]; then cp $(BUILD)/ply ply.tmp && mv -f ply.tmp ply; fi
	@if [ "$(SERVER)" = 0 ]; then echo "built $(BUILD)/ply without server support (./ply is left alone)"; fi

$(BUILD)/tests/%: tests/unit/%.c tests/unit/testlib.h $(BUILD)/libply.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isrc -o $@ $< $(BUILD)/libply.a $(LDFLAGS_MODE) \
		$(LDLIBS) -lcmocka

# The public library (include/ply.h, src/lib/ply.c): core, games, search,
# tools and src/lib only: no CLI, protocols or server (so no libmicrohttpd,
# SQLite, libcurl or readline). libply.so.1 is built from -fPIC objects in
# $(BUILD)/pic and exports only the names in src/lib/exports.txt (a version
# script); libply.a is one relocatable object with the same names global.
PLY_ABI := 1
PUB_SRC := $(sort $(wildcard src/core/*.c src/games/*.c src/games/*/*.c \
	src/search/*.c src/tools/*.c src/lib/*.c))
PUB_OBJ := $(PUB_SRC:%.c=$(BUILD)/%.o)
PIC_OBJ := $(PUB_SRC:%.c=$(BUILD)/pic/%.o)
PUB_LIBS := -ljansson -lm -pthread
LIBDIR_B := $(BUILD)/lib
SO_REAL := libply.so.$(PLY_ABI).0.0
SO_NAME := libply.so.$(PLY_ABI)
$(BUILD)/pic/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -c $< -o $@
$(BUILD)/pic/src/core/version.o: $(VERSION_H)
$(BUILD)/pic/src/core/version.o: CFLAGS += -I$(BUILD) \
	-DPLY_VERSION_INC='"version_git.h"'
$(LIBDIR_B)/libply.map: src/lib/exports.txt
	@mkdir -p $(dir $@)
	@{ echo "PLY_$(PLY_ABI) {"; echo "  global:"; \
	  sed 's/.*/    &;/' $<; echo "  local: *;"; echo "};"; } > $@
$(LIBDIR_B)/$(SO_REAL): $(PIC_OBJ) $(LIBDIR_B)/libply.map
	$(CC) -shared -Wl,-soname,$(SO_NAME) -Wl,--no-undefined \
		-Wl,--version-script=$(LIBDIR_B)/libply.map $(LDFLAGS_MODE) \
		-o $@ $(PIC_OBJ) $(PUB_LIBS)
	ln -sf $(SO_REAL) $(LIBDIR_B)/$(SO_NAME)
	ln -sf $(SO_NAME) $(LIBDIR_B)/libply.so
$(LIBDIR_B)/libply.a: $(PUB_OBJ) src/lib/exports.txt
	@mkdir -p $(dir $@)
	@rm -f $@ $(LIBDIR_B)/libply-all.o
	$(CC) -r -nostdlib -o $(LIBDIR_B)/libply-all.o $(PUB_OBJ)
	objcopy --keep-global-symbols=src/lib/exports.txt \
		$(LIBDIR_B)/libply-all.o
	ar rcs $@ $(LIBDIR_B)/libply-all.o
	@rm -f $(LIBDIR_B)/libply-all.o
lib: $(LIBDIR_B)/$(SO_REAL) $(LIBDIR_B)/libply.a

# make install PREFIX=/usr/local DESTDIR=: the binary, the library, the
# header, the pkg-config file and the man pages.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
install: $(BUILD)/ply lib
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 755 $(BUILD)/ply $(DESTDIR)$(BINDIR)/ply
	install -m 755 $(LIBDIR_B)/$(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SO_REAL)
	ln -sf $(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SO_NAME)
	ln -sf $(SO_NAME) $(DESTDIR)$(LIBDIR)/libply.so
	install -m 644 $(LIBDIR_B)/libply.a $(DESTDIR)$(LIBDIR)/libply.a
	install -m 644 include/ply.h $(DESTDIR)$(INCLUDEDIR)/ply.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e "s|@VERSION@|$$(sed -n 's/^#define PLY_VERSION \"\(.*\)\"/\1/p' include/ply.h)|" \
		-e 's|@LIBS_PRIVATE@|$(PUB_LIBS)|' \
		src/lib/ply.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/ply.pc
	install -m 644 man/ply.1 $(DESTDIR)$(MANDIR)/man1/ply.1
	install -m 644 man/libply.3 $(DESTDIR)$(MANDIR)/man3/libply.3
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ply $(DESTDIR)$(LIBDIR)/$(SO_REAL) \
		$(DESTDIR)$(LIBDIR)/$(SO_NAME) $(DESTDIR)$(LIBDIR)/libply.so \
		$(DESTDIR)$(LIBDIR)/libply.a $(DESTDIR)$(INCLUDEDIR)/ply.h \
		$(DESTDIR)$(PKGCONFIGDIR)/ply.pc $(DESTDIR)$(MANDIR)/man1/ply.1 \
		$(DESTDIR)$(MANDIR)/man3/libply.3

# Fuzz targets (tests/fuzz/fuzz.h): every tests/fuzz/fuzz_NAME.c is a
# libFuzzer binary build/fuzz/fuzz_NAME, linked with a copy of the library
# built by clang with coverage instrumentation, ASan and UBSan.
FUZZ_DIR := build/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -O1 -g -pthread -MMD -MP $(FUZZ_SAN)
FUZZ_OBJ := $(LIB_SRC:%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(FUZZ_DIR)/%,\
	$(sort $(wildcard tests/fuzz/fuzz_*.c)))
ifeq ($(SERVER),0)
  FUZZ_BINS := $(filter-out $(FUZZ_DIR)/fuzz_vdserver $(FUZZ_DIR)/fuzz_web,\
	$(FUZZ_BINS))
endif
$(FUZZ_DIR)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
$(FUZZ_DIR)/obj/web_assets.o: $(WEB_ASSETS_C) src/apps/web/web.h
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -Isrc -c $< -o $@
$(FUZZ_DIR)/libply.a: $(FUZZ_OBJ) $(FUZZ_DIR)/obj/web_assets.o
	@rm -f $@
	ar rcs $@ $^
$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_DIR)/libply.a
	clang $(FUZZ_CFLAGS) -Wall -Wextra -fsanitize=fuzzer -Isrc -o $@ $< \
		$(FUZZ_DIR)/libply.a $(LDLIBS)
fuzz: $(FUZZ_BINS)

# TEST_FUZZ=0: no fuzz targets in make test. They are the same ASan and
# UBSan binaries in every MODE, so CI runs them in its release pass only.
TEST_FUZZ ?= 1
TEST_FUZZ_BINS := $(if $(filter 0,$(TEST_FUZZ)),,$(FUZZ_BINS))
TEST_FUZZ_DIR := $(if $(filter 0,$(TEST_FUZZ)),,$(FUZZ_DIR))
test: $(BUILD)/ply $(TEST_BIN) $(TEST_FUZZ_BINS) lib
	@PLY=$(BUILD)/ply BUILD=$(BUILD) FUZZ=$(TEST_FUZZ_DIR) PLY_SERVER=$(SERVER) \
		MODE=$(MODE) sh tests/run-all.sh

test-slow: $(BUILD)/ply $(TEST_BIN) lib
	@PLY=$(BUILD)/ply BUILD=$(BUILD) PLY_SLOW=1 PLY_SERVER=$(SERVER) \
		MODE=$(MODE) sh tests/run-all.sh

# Golden playthroughs: rewrite them after a change meant to alter them.
golden: $(BUILD)/ply
	@PLY=$(BUILD)/ply sh scripts/golden.sh

# make run: `ply serve` on RUN_PORT (another port when it is busy) prints
# the page's URL. Without a terminal on stdin it stops after RUN_SECONDS,
# so a script or CI never blocks.
RUN_PORT ?= 8080
RUN_SECONDS ?= 300
run: ply
	@echo "Ply: the web page (every game, against any bot, or bots watched) starts below; Ctrl-C stops it."
	@echo "In a terminal instead: ./ply play GAME (./ply list names the games), e.g. ./ply play reversi"
	@if [ -t 0 ]; then t=""; else t="timeout -s INT $(RUN_SECONDS)"; \
	  echo "(no terminal on stdin: the server stops after $(RUN_SECONDS) s)"; fi; \
	$$t ./ply serve --port $(RUN_PORT); rc=$$?; \
	if [ $$rc -eq 2 ]; then echo "port $(RUN_PORT) is busy: serving on a free port"; \
	  $$t ./ply serve --port 0; rc=$$?; fi; \
	[ $$rc -eq 124 ] && rc=0; exit $$rc

clean:
	rm -rf build ply

-include $(LIB_OBJ:.o=.d) $(BUILD)/src/cli/main.d $(FUZZ_OBJ:.o=.d) \
	$(PIC_OBJ:.o=.d)

# The ZRF corpus sweep: every .zrf under ZRF_CORPUS loaded and played.
test-zrf: $(BUILD)/ply
	sh scripts/zrf-sweep.sh "$(ZRF_CORPUS)" ./$(BUILD)/ply

# Native and interpreted ZRF move generation agree: perft 3 of every
# .zrf under ZRF_CORPUS both ways.
test-zrf-cc: $(BUILD)/ply
	sh scripts/zrf-cc-check.sh "$(ZRF_CORPUS)" 3 ./$(BUILD)/ply
