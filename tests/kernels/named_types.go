// Methods on named types that are not structs: an int enumeration with String, a
// func type with a method (the http.HandlerFunc pattern), a channel type, a map
// type, and a pointer method on a named int; interfaces and type switches see them.
package main

type State int

const (
	Idle State = iota
	Running
)

func (s State) String() string {
	if s == Running {
		return "running"
	}
	return "idle"
}

type HandlerFunc func(int) int

func (f HandlerFunc) Serve(x int) int { return f(x) }

type stopCh chan struct{}

func (s stopCh) Stop() { close(s) }

type Set map[string]bool

func (s Set) Add(k string) { s[k] = true }

type Counter int

func (c *Counter) Inc() { *c++ }

type Stringer interface{ String() string }

func describe(v interface{}) string {
	switch x := v.(type) {
	case Stringer:
		return x.String()
	default:
		return "?"
	}
}

func main() {
	s := Running
	if s.String() != "running" || describe(Idle) != "idle" {
		panic("a named int's method")
	}
	h := HandlerFunc(func(x int) int { return x + 1 })
	if h.Serve(1) != 2 {
		panic("a named func's method")
	}
	stop := make(stopCh)
	done := make(chan bool)
	go func() { // stalemate:name waiter
		<-stop
		done <- true
	}()
	stop.Stop()
	<-done
	set := Set{}
	set.Add("a")
	if !set["a"] || len(set) != 1 {
		panic("a named map's method")
	}
	var c Counter
	c.Inc()
	c.Inc()
	if c != 2 {
		panic("a pointer method changes the variable")
	}
}
