package main

// Named results as Go has them: `return v` assigns them before the deferred calls
// run, which see and may change them; `return nil` returns nil, not what they held.

func nilled() (c chan int) {
	c = make(chan int, 1)
	return nil
}

func doubled() (n int) {
	defer func() { n *= 2 }()
	return 21
}

func seen() (n int, err error) {
	var saw int
	defer func() { saw = n }()
	defer func() {
		if saw != 0 {
			panic("a deferred call ran before the one deferred after it")
		}
	}()
	return 7, nil
}

func kept() (n int) {
	n = 1
	defer func() { n++ }()
	return
}

func blank() (_ int, err error) {
	return 5, nil
}

func blankZero() (_ int) {
	return
}

func main() {
	if nilled() != nil {
		panic("return nil returned the named result")
	}
	if doubled() != 42 {
		panic("a deferred call did not change the named result return assigned")
	}
	if n, err := seen(); n != 7 || err != nil {
		panic("return 7, nil returned something else")
	}
	if n, _ := blank(); n != 5 {
		panic("a blank named result lost its value")
	}
	if blankZero() != 0 {
		panic("a bare return gave a blank named result no zero value")
	}
	if kept() != 2 {
		panic("a bare return lost the deferred call's change")
	}
}
