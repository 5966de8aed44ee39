//go:build !unix

package load

import "io/fs"

type fileID struct{ dev, ino uint64 }

// fileIDOf is not available here: files are compared with os.SameFile.
func fileIDOf(fs.FileInfo) (fileID, bool) { return fileID{}, false }
