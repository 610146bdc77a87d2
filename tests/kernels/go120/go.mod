module example.com/loopvar

go 1.20
