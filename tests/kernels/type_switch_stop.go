// An event loop dispatches on each message's type; its stop case returns without the
// acknowledgement the caller waits for.
package main

type ping struct{ reply chan bool }
type stop struct{ done chan bool }

func loop(in chan interface{}) {
	for msg := range in {
		switch m := msg.(type) {
		case ping:
			m.reply <- true
		case stop:
			// buggy: returns without m.done <- true
			return
		}
	}
}

func main() {
	in := make(chan interface{})
	go loop(in)
	r := make(chan bool)
	in <- ping{reply: r}
	<-r
	d := make(chan bool)
	in <- stop{done: d}
	<-d
}
