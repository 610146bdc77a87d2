// The helpers real kernels use beside their concurrency: bytes.Buffer,
// strings.Builder, fmt.Fprintf, io.ReadFull, sync.Map, anonymous structs and
// functions kept in fields. Each check panics if the result differs from Go's.
package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
)

// chunks is a reader that gives at most two bytes a call.
type chunks struct {
	data []byte
}

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 2)], c.data)
	c.data = c.data[n:]
	return n, nil
}

func check(ok bool, what string) {
	if !ok {
		panic(what)
	}
}

func main() {
	var b bytes.Buffer
	b.WriteString("hello")
	b.WriteByte(' ')
	fmt.Fprintf(&b, "%d-%s", 42, "x")
	check(b.String() == "hello 42-x" && b.Len() == 10, "bytes.Buffer: "+b.String())
	b.Reset()
	check(b.Len() == 0, "Reset")

	var sb strings.Builder
	for i := 0; i < 3; i++ {
		fmt.Fprint(&sb, i)
	}
	sb.WriteRune('!')
	check(sb.String() == "012!", "strings.Builder: "+sb.String())
	nb := bytes.NewBufferString("ab")
	nb.Write([]byte("cd"))
	check(nb.String() == "abcd", "NewBufferString")

	buf := make([]byte, 5)
	n, err := io.ReadFull(&chunks{data: []byte("abcdefg")}, buf)
	check(n == 5 && err == nil && string(buf) == "abcde", "ReadFull full")
	n, err = io.ReadFull(&chunks{data: []byte("abc")}, buf)
	check(n == 3 && err == io.ErrUnexpectedEOF, "ReadFull short")
	n, err = io.ReadFull(&chunks{}, buf)
	check(n == 0 && err == io.EOF, "ReadFull empty")

	var m sync.Map
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.Store(i, fmt.Sprint("v", i))
		}()
	}
	wg.Wait()
	v, ok := m.Load(1)
	check(ok && v == "v1", "sync.Map Load")
	actual, loaded := m.LoadOrStore(1, "other")
	check(loaded && actual == "v1", "LoadOrStore loaded")
	actual, loaded = m.LoadOrStore(2, "two")
	check(!loaded && actual == "two", "LoadOrStore stored")
	count := 0
	m.Range(func(k, v any) bool {
		count++
		return true
	})
	check(count == 3, "Range")
	check(m.CompareAndSwap(2, "two", "TWO"), "CompareAndSwap")
	v, loaded = m.LoadAndDelete(2)
	check(loaded && v == "TWO", "LoadAndDelete")
	m.Delete(0)
	_, ok = m.Load(0)
	check(!ok, "Delete")

	phases := []struct {
		name string
		f    func() int
	}{
		{"one", func() int { return 1 }},
		{name: "two", f: func() int { return 2 }},
	}
	sum := 0
	for _, phase := range phases {
		sum += phase.f()
	}
	check(sum == 3 && phases[1].name == "two", "function-valued fields")
	point := struct{ X, Y int }{1, 2}
	check(point.X+point.Y == 3, "anonymous struct")
	fmt.Println("ok")
}
