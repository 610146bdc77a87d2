// Type switches as Go runs them: a case per type (pointers, structs, ints, error, a
// declared interface), several types in one case, nil, and default.
package main

import "errors"

type add struct{ n int }
type stop struct{}

type named interface{ Name() string }

type job struct{}

func (j *job) Name() string { return "job" }

func kind(x interface{}) string {
	switch v := x.(type) {
	case *add:
		if v.n != 3 {
			return "add with the wrong n"
		}
		return "add 3"
	case stop:
		return "stop"
	case int, string:
		return "scalar"
	case error:
		return "error " + v.Error()
	case named:
		return "named " + v.Name()
	case nil:
		return "nil"
	default:
		return "other"
	}
}

func main() {
	cases := []interface{}{&add{n: 3}, stop{}, 7, "s", errors.New("e"), &job{}, nil, true}
	want := []string{"add 3", "stop", "scalar", "scalar", "error e", "named job", "nil", "other"}
	for i, c := range cases {
		if kind(c) != want[i] {
			panic("wrong case for " + want[i])
		}
	}
	msgs := make(chan interface{}, 1)
	go func() {
		msgs <- stop{}
	}()
	switch (<-msgs).(type) {
	case stop:
	default:
		panic("the message is a stop")
	}
}
