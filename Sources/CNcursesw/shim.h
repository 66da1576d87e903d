#ifndef TERMMAP_NCURSES_SHIM_H
#define TERMMAP_NCURSES_SHIM_H
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <wchar.h>
#include <langinfo.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

// Function-like macros and C globals that Swift cannot import or may not read under strict
// concurrency, as plain inline functions.
static inline attr_t termmap_a_bold(void) { return A_BOLD; }
static inline attr_t termmap_a_reverse(void) { return A_REVERSE; }
static inline attr_t termmap_a_normal(void) { return A_NORMAL; }
static inline mmask_t termmap_all_mouse_events(void) { return ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION; }
static inline mmask_t termmap_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t termmap_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t termmap_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t termmap_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t termmap_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline mmask_t termmap_report_mouse_position(void) { return REPORT_MOUSE_POSITION; }
static inline int termmap_colors(void) { return COLORS; }
static inline int termmap_lines(void) { return LINES; }
static inline int termmap_columns(void) { return COLS; }
static inline int termmap_color_pairs(void) { return COLOR_PAIRS; }
static inline const char *termmap_codeset(void) { return nl_langinfo(CODESET); }
/// Whether the current terminal (after newterm) can move its cursor to a row and column.
static inline int termmap_can_address_cursor(void) {
  return cursor_address != NULL && cursor_address != (char *)-1 && cursor_address[0] != 0;
}

// glibc's posix_spawn_file_actions_addclosefrom_np, hidden by its header without _GNU_SOURCE:
// tests use it so the tmux server they spawn holds none of the test runner's descriptors.
#include <spawn.h>
#include <stddef.h>
// glibc's memmem (also hidden without _GNU_SOURCE), for the place-name search.
extern void *termmap_memmem(const void *haystack, size_t haystack_length, const void *needle,
    size_t needle_length) __asm__("memmem");
extern int termmap_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from)
    __asm__("posix_spawn_file_actions_addclosefrom_np");

#endif
