/* SPDX-License-Identifier: MIT */
/* term — curses set-up and restore, signals, the style table, the canvas
 * blit and key translation. The only file of scalelab that includes curses.
 *
 * Signals: INT, TERM and HUP only set a flag (handlers installed before
 * newterm, so ncurses keeps its hands off them); the blocking read returns
 * UIK_SIGNAL and the program saves, restores and re-raises; a one-second
 * alarm restores and dies of the signal if nothing answered (a hung C
 * call). SEGV, BUS, FPE, ILL and ABRT restore the terminal with write(2) of
 * precomputed terminfo strings and tcsetattr (both async-signal-safe), on
 * an alternate signal stack, then re-raise. SIGWINCH and
 * SIGTSTP are left to ncurses (KEY_RESIZE, suspend/resume).
 */
#include "ui/term.h"

#include "base/clock.h"
#include "base/msg.h"
#include "base/utf8.h"
#include "draw/text.h"
#include "ui/keys.h"

#include <curses.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

static SCREEN *term_screen;
static bool term_active;
static bool term_ascii = true;
static bool term_color;
static volatile sig_atomic_t term_quit_sig;
static struct termios term_saved_tio;
static bool term_have_tio;
static char term_restore[256];
static size_t term_restore_len;
static int term_err_streak;

static const char *const term_headless =
    "for scripts use 'scalelab --list', 'check', 'eval' or 'render' (see 'scalelab --help')";

bool term_preflight(char *msg, size_t msg_len)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        msg_set(msg, msg_len, "the lesson menu needs a terminal on stdin and stdout; %s",
                term_headless);
        return false;
    }
    const char *t = getenv("TERM");
    if (!t || !*t) {
        msg_set(msg, msg_len, "TERM is not set, so the screen cannot be drawn; %s", term_headless);
        return false;
    }
    if (strcmp(t, "dumb") == 0) {
        msg_set(msg, msg_len, "TERM=dumb cannot move the cursor; %s", term_headless);
        return false;
    }
    return true;
}

/* Puts the terminal back with async-signal-safe calls only: write(2) of
 * the precomputed terminfo strings and tcsetattr. */
static void term_restore_now(void)
{
    if (term_active) {
        ssize_t w = write(STDOUT_FILENO, term_restore, term_restore_len);
        (void)w;
        if (term_have_tio)
            tcsetattr(STDIN_FILENO, TCSANOW, &term_saved_tio);
    }
}

/* Dies of sig (its default action) from a signal handler. */
ATTR_NORETURN static void term_die_now(int sig)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

/* A quit signal only sets a flag: the main loop saves and exits, or (for
 * Ctrl-C while a lesson script runs) stops the script. If nothing answers
 * within a second (a C call that never returns to the hook), the watchdog
 * alarm restores the terminal and dies of the signal: the program always
 * answers INT, TERM and HUP within a second. */
static void term_on_quit(int sig)
{
    term_quit_sig = sig;
    alarm(1);
}

static void term_on_watchdog(int sig)
{
    (void)sig;
    int quit = (int)term_quit_sig;
    if (!quit)
        return;
    term_restore_now();
    term_die_now(quit);
}

static void term_on_crash(int sig)
{
    term_restore_now();
    /* SA_RESETHAND made the action the default again. */
    raise(sig);
}

/* The crash handler runs on its own stack, so a stack overflow (SIGSEGV
 * with no stack left) still restores the terminal. */
static char term_alt_stack[1 << 16];

static void term_install_signals(void)
{
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = term_alt_stack;
    ss.ss_size = sizeof term_alt_stack;
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = term_on_quit;
    sa.sa_flags = 0; /* no SA_RESTART: the blocking read must wake up */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = term_on_watchdog;
    sigaction(SIGALRM, &sa, NULL);
    sa.sa_handler = term_on_crash;
    sa.sa_flags = (int)(SA_RESETHAND | SA_ONSTACK);
    static const int crash[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof crash / sizeof crash[0]; i++)
        sigaction(crash[i], &sa, NULL);
}

static void term_add_cap(const char *name)
{
    char *s = tigetstr(name);
    if (!s || s == (char *)-1)
        return;
    size_t n = strlen(s);
    if (term_restore_len + n < sizeof term_restore) {
        memcpy(term_restore + term_restore_len, s, n);
        term_restore_len += n;
    }
}

/* Style -> colour and attributes. fg -1 keeps the terminal's default. */
typedef struct {
    short fg;
    attr_t color_attr; /* with colour */
    attr_t mono_attr;  /* NO_COLOR / monochrome: attributes only */
} TermStyle;

static const TermStyle term_styles[STYLE_COUNT] = {
    [STYLE_NORMAL] = {-1, A_NORMAL, A_NORMAL},
    [STYLE_DIM] = {-1, A_DIM, A_DIM},
    [STYLE_BOLD] = {-1, A_BOLD, A_BOLD},
    [STYLE_HEADING] = {COLOR_CYAN, A_BOLD, A_BOLD | A_UNDERLINE},
    [STYLE_EMPH] = {COLOR_YELLOW, A_NORMAL, A_UNDERLINE},
    [STYLE_CODE] = {COLOR_GREEN, A_NORMAL, A_BOLD},
    [STYLE_FRAME] = {-1, A_NORMAL, A_NORMAL},
    [STYLE_LABEL] = {-1, A_NORMAL, A_NORMAL},
    [STYLE_UP_LINK] = {COLOR_GREEN, A_BOLD, A_BOLD},
    [STYLE_OUT_LINK] = {COLOR_YELLOW, A_NORMAL, A_NORMAL},
    [STYLE_ACROSS_LINK] = {COLOR_MAGENTA, A_NORMAL, A_DIM},
    [STYLE_GPU] = {-1, A_NORMAL, A_NORMAL},
    [STYLE_GPU_GROUP_0] = {COLOR_RED, A_BOLD, A_NORMAL},
    [STYLE_GPU_GROUP_1] = {COLOR_GREEN, A_BOLD, A_BOLD},
    [STYLE_GPU_GROUP_2] = {COLOR_YELLOW, A_BOLD, A_NORMAL},
    [STYLE_GPU_GROUP_3] = {COLOR_BLUE, A_BOLD, A_BOLD},
    [STYLE_GPU_GROUP_4] = {COLOR_MAGENTA, A_BOLD, A_NORMAL},
    [STYLE_GPU_GROUP_5] = {COLOR_CYAN, A_BOLD, A_BOLD},
    [STYLE_GPU_GROUP_6] = {COLOR_RED, A_NORMAL, A_NORMAL},
    [STYLE_GPU_GROUP_7] = {COLOR_GREEN, A_NORMAL, A_BOLD},
    [STYLE_SWITCH] = {-1, A_BOLD, A_BOLD},
    [STYLE_NIC] = {COLOR_YELLOW, A_NORMAL, A_NORMAL},
    [STYLE_SELECTED] = {-1, A_REVERSE, A_REVERSE},
    [STYLE_CURSOR] = {-1, A_REVERSE | A_BOLD, A_REVERSE | A_BOLD},
    [STYLE_WARNING] = {COLOR_YELLOW, A_BOLD, A_BOLD},
    [STYLE_GOOD] = {COLOR_GREEN, A_BOLD, A_BOLD},
    [STYLE_BAD] = {COLOR_RED, A_BOLD, A_BOLD | A_UNDERLINE},
    [STYLE_LOAD_IDLE] = {-1, A_DIM, A_DIM},
    [STYLE_LOAD_BUSY] = {COLOR_YELLOW, A_NORMAL, A_NORMAL},
    [STYLE_LOAD_BOTTLENECK] = {COLOR_RED, A_BOLD, A_BOLD},
    [STYLE_BAR_COMPUTE] = {COLOR_GREEN, A_NORMAL, A_NORMAL},
    [STYLE_BAR_TP] = {COLOR_RED, A_NORMAL, A_NORMAL},
    [STYLE_BAR_PP] = {COLOR_YELLOW, A_NORMAL, A_NORMAL},
    [STYLE_BAR_BUBBLE] = {-1, A_DIM, A_DIM},
    [STYLE_BAR_DP] = {COLOR_BLUE, A_NORMAL, A_NORMAL},
    [STYLE_BAR_EP] = {COLOR_MAGENTA, A_NORMAL, A_NORMAL},
};

bool term_start(char *err, size_t err_len)
{
    if (term_active)
        return true;
    /* The terminal's character set from the environment; numbers stay in
     * the C locale whatever LANG or LC_ALL say, so "1.5 TB/s" parses and
     * prints the same here as in the headless commands, `w`, SVG and Lua
     * (tonumber, string.format). The one place scalelab sets a locale. */
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    /* String comparisons (lesson scripts' <, table.sort) stay byte-wise, so
     * their cost is what the sandbox's meter assumes. */
    setlocale(LC_COLLATE, "C");
    term_ascii = !utf8_env_is_utf8();
    term_install_signals();
    term_have_tio = tcgetattr(STDIN_FILENO, &term_saved_tio) == 0;

    /* newterm, unlike initscr, returns NULL on an unknown TERM instead of
     * exiting, so the message is ours. */
    term_screen = newterm(NULL, stdout, stdin);
    if (!term_screen) {
        const char *t = getenv("TERM");
        msg_set(err, err_len, "terminal type '%s' is unknown here; %s", t ? t : "", term_headless);
        return false;
    }
    set_term(term_screen);
    char *cup = tigetstr("cup");
    if (!cup || cup == (char *)-1) {
        endwin();
        delscreen(term_screen);
        term_screen = NULL;
        msg_set(err, err_len, "this terminal cannot move the cursor; %s", term_headless);
        return false;
    }
    term_restore_len = 0;
    term_add_cap("sgr0");
    term_add_cap("cnorm");
    term_add_cap("rmkx");
    term_add_cap("rmcup");
    term_active = true;

    if (!getenv("ESCDELAY"))
        set_escdelay(25);
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    intrflush(stdscr, FALSE);

    const char *nc = getenv("NO_COLOR");
    term_color = !(nc && *nc) && has_colors();
    if (term_color) {
        start_color();
        use_default_colors();
        for (int s = 0; s < STYLE_COUNT; s++)
            init_pair((short)(s + 1), term_styles[s].fg, -1);
    }
    return true;
}

void term_stop(void)
{
    if (!term_active)
        return;
    curs_set(1);
    endwin();
    term_active = false;
    if (term_screen) {
        delscreen(term_screen);
        term_screen = NULL;
    }
    fflush(stdout);
}

bool term_is_ascii(void)
{
    return term_ascii;
}

bool term_has_color(void)
{
    return term_color;
}

void term_size(int *w, int *h)
{
    int y, x;
    getmaxyx(stdscr, y, x);
    *w = x;
    *h = y;
}

void term_blit(const Canvas *c, int cx, int cy)
{
    if (!term_active)
        return;
    erase();
    int w = canvas_width(c), h = canvas_height(c);
    int sw, sh;
    term_size(&sw, &sh);
    for (int y = 0; y < h && y < sh; y++) {
        for (int x = 0; x < w && x < sw; x++) {
            const Cell *cell = canvas_cell(c, x, y);
            if (!cell || cell->width == 0)
                continue;
            int st = cell->style < STYLE_COUNT ? cell->style : STYLE_NORMAL;
            attr_t a = term_color ? term_styles[st].color_attr : term_styles[st].mono_attr;
            short pair = term_color ? (short)(st + 1) : 0;
            uint32_t cp = 0;
            if (utf8_decode(cell->glyph, &cp) == 0)
                cp = ' ';
            wchar_t wc[2] = {(wchar_t)cp, 0};
            if (term_ascii || cp < 0x20 || cp == 0x7f) {
                /* the canvas is ASCII already when the terminal is; the
                 * canvas's own table covers anything drawn before that */
                wc[0] = (wchar_t)(cp < 0x20 || cp == 0x7f ? '?'
                                  : cp < 0x80             ? (char)cp
                                                          : canvas_ascii_glyph(cell->glyph)[0]);
                if (cell->width == 2 && x + 1 < sw) {
                    /* keep the columns: a wide glyph becomes two ASCII cells */
                    cchar_t pad;
                    wchar_t sp[2] = {L'?', 0};
                    setcchar(&pad, sp, a, pair, NULL);
                    mvadd_wch(y, x + 1, &pad);
                }
            }
            cchar_t cc;
            setcchar(&cc, wc, a, pair, NULL);
            mvadd_wch(y, x, &cc);
        }
    }
    if (cx >= 0 && cy >= 0 && cx < sw && cy < sh) {
        move(cy, cx);
        curs_set(1);
    } else {
        curs_set(0);
    }
    refresh();
}

/* Keys read while a lesson script ran (term_busy_poll), delivered first by
 * the next reads in the order typed; when full, later keys are dropped. */
static int term_pending[32];
static int term_pending_n;

/* A get_wch result as a keys.h code. */
static int term_key_code(int r, wint_t ch)
{
    if (r == KEY_CODE_YES) {
        switch (ch) {
        case KEY_UP:
            return UIK_UP;
        case KEY_DOWN:
            return UIK_DOWN;
        case KEY_LEFT:
            return UIK_LEFT;
        case KEY_RIGHT:
            return UIK_RIGHT;
        case KEY_PPAGE:
            return UIK_PGUP;
        case KEY_NPAGE:
            return UIK_PGDN;
        case KEY_HOME:
            return UIK_HOME;
        case KEY_END:
            return UIK_END;
        case KEY_BACKSPACE:
            return UIK_BACKSPACE;
        case KEY_BTAB:
            return UIK_BTAB;
        case KEY_ENTER:
            return UIK_ENTER;
        case KEY_RESIZE:
            return UIK_RESIZE;
        default:
            return UIK_NONE;
        }
    }
    if (ch == '\r' || ch == '\n')
        return UIK_ENTER;
    if (ch == 127 || ch == 8)
        return UIK_BACKSPACE;
    return (int)ch;
}

int term_read_key(void)
{
    if (term_quit_sig)
        return UIK_SIGNAL;
    if (term_pending_n > 0) {
        int key = term_pending[0];
        term_pending_n--;
        memmove(term_pending, term_pending + 1, (size_t)term_pending_n * sizeof term_pending[0]);
        return key;
    }
    wint_t ch = 0;
    int r = get_wch(&ch);
    if (term_quit_sig)
        return UIK_SIGNAL;
    if (r == ERR) {
        /* A closed terminal makes every read fail at once: treat a long run
         * of failures as a hang-up instead of spinning. */
        if (++term_err_streak > 200) {
            term_quit_sig = SIGHUP;
            return UIK_SIGNAL;
        }
        return UIK_NONE;
    }
    term_err_streak = 0;
    return term_key_code(r, ch);
}

int term_read_key_timeout(int ms)
{
    double t0 = clock_now_s();
    timeout(ms);
    int key = term_read_key();
    timeout(-1);
    double waited_ms = (clock_now_s() - t0) * 1e3;
    /* A read that waited out its timeout is not a failure of the terminal. */
    if (key == UIK_NONE && waited_ms >= ms / 2.0)
        term_err_streak = 0;
    return key;
}

bool term_busy_poll(void *ctx, double running_s)
{
    (void)ctx;
    (void)running_s;
    if (!term_active)
        return false;
    if (term_quit_sig == SIGINT) {
        term_quit_sig = 0; /* Ctrl-C stops the script, not the program */
        alarm(0);          /* answered: no watchdog */
        return true;
    }
    if (term_quit_sig)
        return true;
    attron(A_REVERSE);
    mvaddstr(LINES - 1, 0,
             term_is_ascii() ? " running... Esc to stop " : " running… Esc to stop ");
    attroff(A_REVERSE);
    refresh();
    bool stop = false;
    nodelay(stdscr, TRUE);
    wint_t ch;
    int r;
    while (!stop && (r = get_wch(&ch)) != ERR) {
        /* q stops the script too, and is kept so the screen then quits */
        stop = r == OK && (ch == 27 || ch == 3 || ch == 'q');
        int key = term_key_code(r, ch);
        if ((!stop || ch == 'q') && key != UIK_NONE &&
            term_pending_n < (int)(sizeof term_pending / sizeof term_pending[0]))
            term_pending[term_pending_n++] = key;
    }
    nodelay(stdscr, FALSE);
    return stop;
}

int term_quit_signal(void)
{
    return (int)term_quit_sig;
}

void term_die_by_signal(int sig)
{
    term_stop();
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(128 + sig);
}
