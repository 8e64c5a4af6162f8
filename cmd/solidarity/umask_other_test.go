//go:build !unix

package main

func syscallUmask(int) int { return 0 }
