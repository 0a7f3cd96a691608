// The text of -version: the module's version and build settings.

package main

import (
	"runtime/debug"
	"strings"
)

// versionText returns what -version prints: the module version of the
// binary ("(devel)" when built from a checkout), the commit and time it was
// built from when the build recorded them, and the Go version, from the
// build information that the Go toolchain writes into every binary.
func versionText() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "weblink (unknown version: built without module information)\n"
	}
	return versionOf(info)
}

// versionOf returns the version line for the build information info.
func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	line := []string{"weblink", v}
	var rev, when, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+modified"
			}
		}
	}
	if rev != "" && !strings.Contains(v, rev[:min(12, len(rev))]) {
		line = append(line, "commit "+rev[:min(12, len(rev))]+dirty)
		if when != "" {
			line = append(line, when)
		}
	}
	return strings.Join(append(line, info.GoVersion), " ") + "\n"
}
