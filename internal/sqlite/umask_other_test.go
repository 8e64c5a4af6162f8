//go:build !unix

package sqlite_test

func umask(int) int { return 0 }
