package redisstore

import "os"

const workerEnv = "WEBLINK_REDISSTORE_WORKER"

func worker() int { os.Stdout.WriteString("todo\n"); return 1 }
