/*
 * tests/hotspot/ByteArrayAccessCalls.java — JDK 25's answers for minivm's ByteArrayAccess natives
 * (vm/natives.c, vm/lib/ByteArrayAccess.mva): calls of sun.security.provider.ByteArrayAccess's
 * bulk conversions, each with what it did, as the table tests/hotspot/byte_array_access.txt holds
 * and tests/test_hotspot_library.c replays on minivm.
 *
 *     java --add-opens java.base/sun.security.provider=ALL-UNNAMED ByteArrayAccessCalls.java
 *
 * (sh scripts/test-hotspot --record-library rewrites the table with the project's HotSpot 25; the
 * test re-runs this program there and compares.) The calls: hand-picked edge cases (int wrap of
 * `len += ofs`, offsets and lengths at Integer.MIN_VALUE and MAX_VALUE, nulls, partial elements),
 * then random ones from java.util.Random(SEED), whose sequence the Java specification fixes. One
 * line per call:
 *
 *     FN IN INOFS OUT OUTOFS LEN | RESULT | OUT_AFTER
 *
 * IN and OUT: "null" or "byte[6]", "int[10]", "long[3]"; RESULT: "ok", or the exception's class
 * and message; OUT_AFTER: the out array's elements after the call, in hex, or "unchanged" ("-"
 * when it is null). Every array starts with element i = the low bits of (i + 1) *
 * 0x9E3779B97F4A7C15 for the in array and 0xA5 in every byte for the out array, so a partial
 * conversion shows.
 */
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class ByteArrayAccessCalls {
    static final long SEED = 20261203L;
    static final int RANDOM_CALLS = 1400;
    // the conversions minivm has (JDK 25 has no b2iLittle); from bytes: in is byte[]
    static final String[] FNS = {"i2bLittle", "b2iBig", "i2bBig", "b2lLittle", "l2bLittle", "b2lBig", "l2bBig"};

    static boolean fromBytes(String fn) {
        return fn.startsWith("b2");
    }

    static char wordKind(String fn) {
        return fn.startsWith("l2") || fn.startsWith("b2l") ? 'l' : 'i';
    }

    static long pattern(int i) {
        return (i + 1) * 0x9E3779B97F4A7C15L;
    }

    /* A new array: kind b, i or l, n elements (-1: null), filled as the header says */
    static Object array(char kind, int n, boolean in) {
        if (n < 0)
            return null;
        switch (kind) {
        case 'b': {
            byte[] a = new byte[n];
            for (int i = 0; i < n; i++)
                a[i] = in ? (byte) pattern(i) : (byte) 0xA5;
            return a;
        }
        case 'i': {
            int[] a = new int[n];
            for (int i = 0; i < n; i++)
                a[i] = in ? (int) pattern(i) : 0xA5A5A5A5;
            return a;
        }
        default: {
            long[] a = new long[n];
            for (int i = 0; i < n; i++)
                a[i] = in ? pattern(i) : 0xA5A5A5A5A5A5A5A5L;
            return a;
        }
        }
    }

    static String describe(char kind, int n) {
        return n < 0 ? "null" : (kind == 'b' ? "byte" : kind == 'i' ? "int" : "long") + "[" + n + "]";
    }

    static String contents(Object a, char kind, int n) {
        if (a == null)
            return "-";
        String hex = hex(a);
        return hex.equals(hex(array(kind, n, false))) ? "unchanged" : hex;
    }

    static String hex(Object a) {
        StringBuilder sb = new StringBuilder();
        if (a instanceof byte[] b)
            for (byte x : b)
                sb.append(String.format("%02x", x));
        else if (a instanceof int[] w)
            for (int x : w)
                sb.append(sb.length() > 0 ? " " : "").append(String.format("%08x", x));
        else
            for (long x : (long[]) a)
                sb.append(sb.length() > 0 ? " " : "").append(String.format("%016x", x));
        return sb.toString();
    }

    record Call(String fn, int inLen, int inOfs, int outLen, int outOfs, int len) {}

    static final int MIN = Integer.MIN_VALUE, MAX = Integer.MAX_VALUE;

    /* The hand-picked calls: per conversion, the wrap, the bounds, the nulls */
    static void edgeCases(List<Call> calls) {
        for (String fn : FNS) {
            int n = wordKind(fn) == 'l' ? 8 : 4;
            boolean fb = fromBytes(fn);
            // (words, wordOfs, bytes, byteOfs, len) in the words-first order of the examples
            int[][] cases = {
                {10, 15, 6, MIN, -3},              // len += ofs wraps positive: the loop runs, the first access throws
                {7, 2, -1, MIN, -8},                // the same with a null byte side
                {10, 0, 40, MIN, MIN},              // MIN + MIN wraps to 0, above MIN: the loop runs
                {10, 0, 40, -1, MIN},               // -1 + MIN wraps to MAX
                {10, 0, 40, MIN, -1},
                {10, 0, 40, MAX, 4},                // MAX + 4 wraps negative: no iteration
                {10, 0, 40, MAX - 3, 4},
                {10, 0, 40, 4, MAX},
                {10, 0, 40, MAX, MAX},              // wraps to -2
                {10, 0, 40, -5, 8},                 // a negative offset that the loop reaches
                {10, 0, 40, 0, -4},                 // a negative length: no iteration
                {10, 0, 40, 0, 0},
                {10, 0, 40, 0, 40},                 // exact fit
                {10, 0, 40, 0, 41},                 // one byte more: a partial element
                {10, 0, 40, 2, 6},                  // len not a multiple of the element
                {10, 0, 40, 36, 8},                 // the last element runs past the bytes
                {2, 0, 40, 0, 16},                  // the words run out first
                {10, -1, 40, 0, 8},                 // a negative word offset
                {10, MIN, 40, 0, 8},
                {10, MAX, 40, 0, 8},
                {-1, 0, 40, 0, 8},                  // null words
                {-1, 0, -1, 0, 8},                  // both null
                {-1, 0, -1, MIN, -3},               // both null, the wrap
                {10, 0, 2, 0, 8},                   // fewer bytes than one element
                {10, 0, 0, 0, 4},                   // no bytes at all
                {0, 0, 40, 0, 4},                   // no words at all
                {10, 3, 40, 5, 20},
            };
            for (int[] c : cases) {
                int words = c[0], wOfs = c[1], bytes = c[2], bOfs = c[3], len = c[4];
                calls.add(fb ? new Call(fn, bytes, bOfs, words, wOfs, len) : new Call(fn, words, wOfs, bytes, bOfs, len));
            }
            if (n == 8)
                calls.add(fb ? new Call(fn, 40, 0, 5, 0, 40) : new Call(fn, 5, 0, 40, 0, 40));
        }
    }

    /* An offset or length: mostly small, sometimes at the int range's ends, so sums wrap */
    static int value(Random r, int around) {
        switch (r.nextInt(10)) {
        case 0: return MIN + r.nextInt(16);
        case 1: return MAX - r.nextInt(16);
        case 2: return -r.nextInt(16) - 1;
        case 3: return r.nextInt(2 * around + 9) - 4;
        case 4: return (r.nextInt(around / 4 + 3)) * 4;
        case 5: return (r.nextInt(around / 8 + 3)) * 8;
        default: return r.nextInt(around + 9) - 2;
        }
    }

    static void randomCalls(List<Call> calls) {
        Random r = new Random(SEED);
        for (int k = 0; k < RANDOM_CALLS; k++) {
            String fn = FNS[r.nextInt(FNS.length)];
            boolean fb = fromBytes(fn);
            int words = r.nextInt(20) == 0 ? -1 : r.nextInt(11);
            int bytes = r.nextInt(20) == 0 ? -1 : r.nextInt(49);
            int wOfs = value(r, 10), bOfs = value(r, 48), len = value(r, 48);
            calls.add(fb ? new Call(fn, bytes, bOfs, words, wOfs, len) : new Call(fn, words, wOfs, bytes, bOfs, len));
        }
    }

    public static void main(String[] args) throws Exception {
        Class<?> baa = Class.forName("sun.security.provider.ByteArrayAccess");
        List<Call> calls = new ArrayList<>();
        edgeCases(calls);
        randomCalls(calls);
        System.out.println("# JDK 25's sun.security.provider.ByteArrayAccess, by tests/hotspot/ByteArrayAccessCalls.java");
        System.out.println("# " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        System.out.println("# " + calls.size() + " calls: FN IN INOFS OUT OUTOFS LEN | RESULT | OUT_AFTER");
        for (Call c : calls) {
            boolean fb = fromBytes(c.fn);
            char wk = wordKind(c.fn);
            char inKind = fb ? 'b' : wk, outKind = fb ? wk : 'b';
            Class<?> inType = inKind == 'b' ? byte[].class : inKind == 'i' ? int[].class : long[].class;
            Class<?> outType = outKind == 'b' ? byte[].class : outKind == 'i' ? int[].class : long[].class;
            Method m = baa.getDeclaredMethod(c.fn, inType, int.class, outType, int.class, int.class);
            m.setAccessible(true);
            Object in = array(inKind, c.inLen, true), out = array(outKind, c.outLen, false);
            String result = "ok";
            try {
                m.invoke(null, in, c.inOfs, out, c.outOfs, c.len);
            } catch (InvocationTargetException e) {
                Throwable t = e.getCause();
                result = t.getClass().getName() + (t.getMessage() != null ? ": " + t.getMessage() : "");
            }
            System.out.println(c.fn + " " + describe(inKind, c.inLen) + " " + c.inOfs + " " + describe(outKind, c.outLen)
                               + " " + c.outOfs + " " + c.len + " | " + result + " | " + contents(out, outKind, c.outLen));
        }
    }
}
