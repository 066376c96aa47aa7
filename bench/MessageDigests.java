/*
 * bench/MessageDigests.java — the JDK's JMH benchmark
 * test/micro/org/openjdk/bench/java/security/MessageDigests.java without JMH:
 * the same operations (digest, getAndDigest) on the same input
 * (byte[length] from new Random(1234567890)), timed the way JMH's throughput
 * mode times them, printed as JMH's result table. bench/sha3_compare runs it
 * as `java -Xint` beside minivm's bench/MessageDigests.mva.
 *
 *   java [-Xint] bench/MessageDigests.java [digest|getAndDigest]
 *        [-p digesterName=SHA3-256[,...]] [-p length=64,16384]
 *        [-wi N] [-i N] [-w MS] [-r MS] [-v]
 *
 * Defaults: both benchmarks, SHA3-256, lengths 64 and 16384, 5 warm-up and
 * 5 measurement iterations of 1000 ms (JMH's settings, one fork). -v prints
 * JMH's per-iteration lines, as MessageDigests.mva -v (bench/runner.py reads them).
 */
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

public class MessageDigests {
    // JMH keeps results alive with a Blackhole; a volatile sink does the same here.
    static volatile int sink;

    interface Op {
        byte[] run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        List<String> benchmarks = new ArrayList<>();
        List<String> names = List.of("SHA3-256");
        List<Integer> lengths = List.of(64, 16384);
        int warmups = 5, iterations = 5;
        long warmupMs = 1000, iterationMs = 1000;
        boolean verbose = false;
        for (int a = 0; a < args.length; a++) {
            String s = args[a];
            switch (s) {
                case "digest", "getAndDigest" -> benchmarks.add(s);
                case "-p" -> {
                    String kv = value(args, ++a, s);
                    int eq = kv.indexOf('=');
                    String k = eq < 0 ? kv : kv.substring(0, eq);
                    List<String> vs = Arrays.asList(kv.substring(eq + 1).split(","));
                    if (k.equals("digesterName")) {
                        names = vs;
                    } else if (k.equals("length")) {
                        lengths = vs.stream().map(Integer::valueOf).toList();
                    } else {
                        usage("unknown parameter: " + k);
                    }
                }
                case "-wi" -> warmups = Integer.parseInt(value(args, ++a, s));
                case "-i" -> iterations = Integer.parseInt(value(args, ++a, s));
                case "-w" -> warmupMs = Long.parseLong(value(args, ++a, s));
                case "-r" -> iterationMs = Long.parseLong(value(args, ++a, s));
                case "-v" -> verbose = true;
                default -> usage("unknown argument: " + s);
            }
        }
        if (benchmarks.isEmpty())
            benchmarks = List.of("digest", "getAndDigest");
        if (iterations < 1)
            usage("-i needs at least 1 iteration");

        List<String> rows = new ArrayList<>();
        for (String bench : benchmarks) {
            for (String name : names) {
                for (int length : lengths) {
                    // @Setup: the input and (for digest) one MessageDigest
                    byte[] inputBytes = new byte[length];
                    new Random(1234567890).nextBytes(inputBytes);
                    MessageDigest digester = MessageDigest.getInstance(name);
                    Op op = bench.equals("digest")
                            ? () -> digester.digest(inputBytes)
                            : () -> MessageDigest.getInstance(name).digest(inputBytes);
                    if (verbose) {
                        System.out.println("# Benchmark: MessageDigests." + bench);
                        System.out.printf("# Parameters: (digesterName = %s, length = %d)%n", name, length);
                    }
                    for (int w = 0; w < warmups; w++) {
                        double score = iteration(op, warmupMs);
                        if (verbose)
                            System.out.printf("# Warmup Iteration %3d: %.3f ops/ms%n", w + 1, score);
                    }
                    double[] scores = new double[iterations];
                    for (int k = 0; k < iterations; k++) {
                        scores[k] = iteration(op, iterationMs);
                        if (verbose)
                            System.out.printf("Iteration %3d: %.3f ops/ms%n", k + 1, scores[k]);
                    }
                    if (verbose)
                        System.out.println();
                    rows.add(row("MessageDigests." + bench, name, length, scores));
                }
            }
        }
        System.out.printf("%-24s %14s %9s %6s %4s %12s   %9s %6s%n",
                "Benchmark", "(digesterName)", "(length)", "Mode", "Cnt", "Score", "Error", "Units");
        rows.forEach(System.out::println);
    }

    // One iteration: call op until ms have passed; ops per millisecond.
    static double iteration(Op op, long ms) throws Exception {
        long limit = ms * 1_000_000L;
        long ops = 0;
        long t0 = System.nanoTime(), t;
        do {
            sink ^= op.run()[0];
            ops++;
            t = System.nanoTime() - t0;
        } while (t < limit);
        return ops * 1e6 / t;
    }

    // JMH's row: mean score and the 99.9% confidence half-width (Student's t). As JMH,
    // the Cnt column is empty for one iteration and the Error for fewer than three.
    static String row(String bench, String name, int length, double[] s) {
        int n = s.length;
        double mean = Arrays.stream(s).average().orElse(Double.NaN);
        double var = 0;
        for (double x : s)
            var += (x - mean) * (x - mean);
        String cnt = n > 1 ? Integer.toString(n) : "";
        String error = n > 2
                ? String.format("± %9.3f", t9995(n - 1) * Math.sqrt(var / (n - 1)) / Math.sqrt(n))
                : "";
        return String.format("%-24s %14s %9d %6s %4s %12.3f %11s %6s",
                bench, name, length, "thrpt", cnt, mean, error, "ops/ms");
    }

    // The 0.9995 quantile of Student's t with df degrees of freedom.
    static double t9995(int df) {
        final double[] t = {636.619, 31.599, 12.924, 8.610, 6.869, 5.959, 5.408, 5.041, 4.781, 4.587,
                            4.437, 4.318, 4.221, 4.140, 4.073, 4.015, 3.965, 3.922, 3.883, 3.850,
                            3.819, 3.792, 3.768, 3.745, 3.725, 3.707, 3.690, 3.674, 3.659, 3.646};
        return df <= t.length ? t[df - 1] : 3.291;
    }

    static String value(String[] args, int a, String opt) {
        if (a >= args.length)
            usage(opt + " needs a value");
        return args[a];
    }

    static void usage(String msg) {
        System.err.println("MessageDigests: " + msg);
        System.err.println("usage: java [-Xint] MessageDigests.java [digest|getAndDigest] "
                + "[-p digesterName=A,B] [-p length=N,M] [-wi N] [-i N] [-w MS] [-r MS] [-v]");
        System.exit(2);
    }

    static {
        try {
            MessageDigest.getInstance("SHA3-256");
        } catch (NoSuchAlgorithmException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
