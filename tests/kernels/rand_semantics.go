// math/rand as the engines explore it: every value of rand.Intn(n) is a branch, and a
// *rand.Rand made with rand.New(rand.NewSource(seed)) draws the same way.
package main

import "math/rand"

func main() {
	rand.Seed(42)
	v := rand.Intn(3)
	if v < 0 || v >= 3 {
		panic("rand.Intn(3) out of range")
	}
	r := rand.New(rand.NewSource(7))
	w := r.Intn(2)
	if w != 0 && w != 1 {
		panic("r.Intn(2) out of range")
	}
	if rand.Int63n(1) != 0 || rand.Int31n(1) != 0 {
		panic("Int63n(1) and Int31n(1) are 0")
	}
}
