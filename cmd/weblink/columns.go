// The width of the terminal, for the table and the progress line.

package main

import (
	"strconv"
	"strings"
)

// columns returns the width of the terminal that the progress line is
// drawn on: the COLUMNS environment variable when it is a positive number
// (shells set it, and a user can), otherwise what the terminal reports
// (terminalColumns: the TIOCGWINSZ ioctl, on systems that have it), 0 when
// neither tells; the progress line then takes 80 columns. Only the
// standard library is used, no golang.org/x/term.
func columns(getenv func(string) string, terminal func() int) int {
	if n, err := strconv.Atoi(strings.TrimSpace(getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	if terminal != nil {
		return terminal()
	}
	return 0
}
