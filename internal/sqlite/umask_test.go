//go:build unix

package sqlite_test

import "syscall"

func umask(m int) int { return syscall.Umask(m) }
