// etcd#5509: "clientv3: fix deadlock on Get with concurrent Close". A KV request
// first acquires the client: remoteClient.acquire read-locks the client's RWMutex
// and, when its cached connection is still the client's current one, returns
// holding that read lock for the RPC (released after it). When the connection had
// gone and the client was closed (cancel == nil), acquire returned ErrConnClosed
// without dropping the read lock. Client.Close takes the write lock several times
// (it marks the client closed, unlocks while it shuts the watcher, lease and
// connection down, then locks again), so a Get that ran inside that window left
// the read lock held and Close's next Lock waited forever. The fix releases the
// read lock before returning the error.
//
// https://github.com/etcd-io/etcd/pull/5509
package main

import (
	"errors"
	"sync"
)

// fixed = 1: acquire drops the client's read lock before returning ErrConnClosed.
const fixed = 0

// How many Gets run concurrently with Close.
const gets = 1

var ErrConnClosed = errors.New("clientv3: connection closed")

type conn struct {
	id int
}

type Client struct {
	mu      sync.RWMutex
	conn    *conn
	closed  bool // cancel == nil in the client
	lastErr error
}

func (c *Client) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()

	// The watcher and lease close here, without the lock (left out). Then the
	// connection goes away.
	c.mu.Lock()
	c.conn = nil
	c.mu.Unlock()

	// Finally Close reads the last connection error under the lock again.
	c.mu.Lock()
	c.lastErr = ErrConnClosed
	c.mu.Unlock()
}

type remoteClient struct {
	mu     sync.Mutex
	client *Client
	conn   *conn
}

// acquire returns nil holding the client's read lock, or an error without it.
func (r *remoteClient) acquire() error {
	r.mu.Lock()
	r.client.mu.RLock()
	closed := r.client.closed
	match := r.conn == r.client.conn
	r.mu.Unlock()
	if match {
		return nil
	}
	if fixed == 0 && closed {
		// buggy: returns the error while still holding the client's read lock.
		return ErrConnClosed
	}
	r.client.mu.RUnlock()
	if closed {
		return ErrConnClosed
	}
	// A reconnect would follow here; in this kernel the connection only goes
	// away on Close, so the client is closed whenever it does not match.
	return ErrConnClosed
}

func (r *remoteClient) release() { r.client.mu.RUnlock() }

// Get is KV.Get: acquire the connection, do the RPC, release it.
func (r *remoteClient) Get() error {
	if err := r.acquire(); err != nil {
		return err
	}
	defer r.release()
	// The RPC on the acquired connection happens here.
	return nil
}

func main() {
	cn := &conn{id: 1}
	cli := &Client{conn: cn}
	rc := &remoteClient{client: cli, conn: cn}

	var wg sync.WaitGroup
	wg.Add(gets)
	for i := 0; i < gets; i++ {
		go func() { // stalemate:name get
			defer wg.Done()
			err := rc.Get()
			if err != nil && err != ErrConnClosed {
				panic("expected ErrConnClosed")
			}
		}()
	}
	cli.Close()
	wg.Wait()
}
