// grpc-go#8451 (2025), "transport: release mutex before returning on expired
// deadlines in server streams", written from the PR's description: #8439 made the
// server transport return early when a new stream's deadline had already expired,
// and that early return left the server's mutex held forever; every later stream
// waits for it. The fix unlocks before returning.
package main

import "sync"

// fixed = 1: the early return unlocks first (PR #8451).
const fixed = 0

// Streams handled, the first with an expired deadline.
const streams = 2

type serverTransport struct {
	mu      sync.Mutex
	streams int
}

func (t *serverTransport) operateHeaders(expired bool) {
	t.mu.Lock()
	if expired {
		if fixed == 1 {
			t.mu.Unlock()
		}
		// buggy: returns with t.mu held.
		return
	}
	t.streams++
	t.mu.Unlock()
}

func main() {
	t := &serverTransport{}
	var wg sync.WaitGroup
	for i := 0; i < streams; i++ {
		wg.Add(1)
		go func() { // stalemate:name stream
			defer wg.Done()
			t.operateHeaders(i == 0)
		}()
	}
	wg.Wait()
}
