import random
random.seed(11)
with open("/tmp/h5/wd.csv", "w") as f:
    f.write("wk,wname,wv\n")
    for k in range(0, 21):
        if k % 5 == 2:
            continue
        f.write("%d,%s,%s\n" % (k, "" if k % 6 == 0 else "w%d" % (k % 4), "" if k % 7 == 0 else str(random.randint(-50, 50))))
