package main

import (
	"os"
	"slices"
	"strings"

	"github.com/airq/airq/ctl"
)

// simHint is what airqd on the simulated radio tells whoever started it by
// hand (make run): how to stop it and what to look at next, with the
// socket's path when airqctl would not find it by itself.
func simHint(control string) string {
	const stop = "Ctrl-C stops airqd"
	if control == "" {
		return stop + "; without -control, airqctl cannot reach it"
	}
	ctlCmd := "airqctl"
	if !slices.Contains(ctl.ClientSockets(os.Geteuid(), os.Getenv("XDG_RUNTIME_DIR")), control) {
		ctlCmd += " -socket " + shellWord(control)
	}
	return stop + "; in another terminal try `" + ctlCmd + " top` (q quits) or `" + ctlCmd + " station dump`"
}

// shellWord is path as a shell reads it back: bare when it can be, else
// in single quotes.
func shellWord(path string) string {
	if !strings.ContainsAny(path, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return path
	}
	return "'" + strings.ReplaceAll(path, "'", `'\''`) + "'"
}
