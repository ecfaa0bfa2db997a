/* SPDX-License-Identifier: MIT */
/* Layer guard (see the Makefile): found first on the include path of every
 * object outside src/ui/, so including curses there fails to compile. */
#error "only src/ui/ includes curses (the layers of docs/DESIGN.md)"
