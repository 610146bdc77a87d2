// net.Conn, net.Error, net.Listener and net.Addr are interfaces a kernel's own types
// implement (no network is simulated): assignments, assertions and type switches see
// a value as one when its type declares every method.
package main

import (
	"errors"
	"net"
)

type addr struct{}

func (addr) Network() string { return "tcp" }
func (addr) String() string  { return "10.0.0.1:80" }

type pipeConn struct{ closed bool }

func (c *pipeConn) Read(p []byte) (int, error)  { return 0, nil }
func (c *pipeConn) Write(p []byte) (int, error) { return len(p), nil }
func (c *pipeConn) Close() error                { c.closed = true; return nil }
func (c *pipeConn) LocalAddr() net.Addr         { return addr{} }
func (c *pipeConn) RemoteAddr() net.Addr        { return addr{} }
func (c *pipeConn) SetDeadline(t int) error     { return nil }
func (c *pipeConn) SetReadDeadline(t int) error { return nil }
func (c *pipeConn) SetWriteDeadline(t int) error {
	return nil
}

type timeout struct{}

func (timeout) Error() string   { return "i/o timeout" }
func (timeout) Timeout() bool   { return true }
func (timeout) Temporary() bool { return true }

func kind(err error) string {
	switch e := err.(type) {
	case net.Error:
		if e.Timeout() {
			return "timeout"
		}
		return "net"
	default:
		return "other"
	}
}

func main() {
	var c net.Conn = &pipeConn{}
	c.Close()
	if c.RemoteAddr().String() != "10.0.0.1:80" {
		panic("methods through net.Conn")
	}
	if kind(timeout{}) != "timeout" || kind(errors.New("x")) != "other" {
		panic("net.Error is the method set Error, Timeout, Temporary")
	}
	var x interface{} = &pipeConn{}
	if _, ok := x.(net.Conn); !ok {
		panic("pipeConn is a net.Conn")
	}
	if _, ok := x.(net.Error); ok {
		panic("pipeConn is not a net.Error")
	}
}
