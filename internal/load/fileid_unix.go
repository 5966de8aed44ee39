//go:build unix

package load

import (
	"io/fs"
	"syscall"
)

type fileID struct{ dev, ino uint64 }

// fileIDOf returns the device and inode of a file.
func fileIDOf(info fs.FileInfo) (fileID, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}
