//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

// The terminal's width from the TIOCGWINSZ ioctl.

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// terminalColumns returns the width of the terminal f is, from the
// TIOCGWINSZ ioctl, or 0.
func terminalColumns(f any) int {
	file, ok := f.(*os.File)
	if !ok {
		return 0
	}
	raw, err := file.SyscallConn()
	if err != nil {
		return 0
	}
	var ws struct{ rows, cols, x, y uint16 } // struct winsize
	var errno syscall.Errno
	raw.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws)))
	})
	if errno != 0 {
		return 0
	}
	return int(ws.cols)
}
