//go:build unix

package main

import "syscall"

func syscallUmask(m int) int { return syscall.Umask(m) }
