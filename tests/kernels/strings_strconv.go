// strings and strconv beside concurrency: workers build keys, a collector parses
// them back. Panics if a helper gives another result than Go's.
package main

import (
	"strconv"
	"strings"
	"sync"
)

func want(ok bool, what string) {
	if !ok {
		panic("wrong: " + what)
	}
}

func main() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	keys := []string{}
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := "worker-" + strconv.Itoa(i)
			mu.Lock()
			keys = append(keys, k)
			mu.Unlock()
		}()
	}
	wg.Wait()
	joined := strings.Join(keys, ",")
	want(len(strings.Split(joined, ",")) == 2, "Split")
	want(strings.Contains(joined, "worker-1"), "Contains")
	want(strings.HasPrefix(joined, "worker-") && strings.HasSuffix(joined, "0") || strings.HasSuffix(joined, "1"), "HasPrefix")
	n, err := strconv.Atoi(strings.TrimPrefix("worker-7", "worker-"))
	want(n == 7 && err == nil, "Atoi")
	_, err = strconv.Atoi("x")
	want(err != nil && err.Error() == "strconv.Atoi: parsing \"x\": invalid syntax", "Atoi error")
	want(strconv.FormatInt(-255, 16) == "-ff", "FormatInt")
	want(strings.ToUpper(" ab ") == " AB " && strings.TrimSpace(" ab ") == "ab", "ToUpper, TrimSpace")
	want(strings.Repeat("ab", 2) == "abab" && strings.Index("chicken", "ken") == 4, "Repeat, Index")
	want(strings.Replace("oink oink oink", "k", "ky", 2) == "oinky oinky oink", "Replace")
	want(len(strings.Fields("  a b  c ")) == 3 && strings.Count("cheese", "e") == 3, "Fields, Count")
	b, err := strconv.ParseBool("true")
	want(b && err == nil, "ParseBool")
	want(strconv.Quote("a\"b") == "\"a\\\"b\"", "Quote")
}
