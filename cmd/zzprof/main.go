package main

import (
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/render"
)

func main() {
	f, _ := render.Lookup(os.Args[1])
	st := f.(render.Streamer).Stream(io.Discard, render.Options{})
	var peak uint64
	n := 0
	take := func(e *check.Entry) bool {
		n++
		if false {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak {
				peak = ms.HeapAlloc
				hf, _ := os.Create("/tmp/heap.prof")
				pprof.WriteHeapProfile(hf)
				hf.Close()
			}
			println(n, ms.HeapAlloc>>20, "MiB live")
		}
		return st.Entry(e)
	}
	cf, _ := os.Create("/tmp/cpu.prof")
	pprof.StartCPUProfile(cf)
	defer pprof.StopCPUProfile()
	rep, err := check.Run(check.Options{Paths: os.Args[2:], Stream: take, Lint: true})
	if err != nil {
		panic(err)
	}
	st.Finish(rep)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	println("end", ms.HeapAlloc>>20, "MiB live", ms.Sys>>20, "MiB sys")
	hf, _ := os.Create("/tmp/heap.prof")
	pprof.WriteHeapProfile(hf)
	hf.Close()
}
