package io.loadsmith.agent;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.Target;
import io.loadsmith.stall.gate.ReplicaHeader;
import io.loadsmith.stall.gate.StallGate;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Weaves the gates of the enabled targets into a target class as it loads or is retransformed, with the
 * ASM that Byte Buddy ships (about 30 classes to load, where Byte Buddy's {@code AgentBuilder} and
 * {@code Advice} load about 1,100 before the first class is gated). A gated method gets one static call to
 * {@link StallGate#passGlobal()} (3 bytes) before its first instruction ({@link Gate#onEnter()}), or with
 * {@code trace-header=on} and a response argument, {@code ReplicaHeader.passGlobalAndAdd(response)}; an
 * exit gate ({@link Gate#onExit()}) adds the call before every return and in a catch-all handler that calls
 * it and rethrows, so the method leaves through the gate however it ends. Nothing else of the class
 * changes: no member is added (retransformation allows none), the class's own frames are kept and the one
 * new frame (the handler's: no locals, the throwable on the stack) needs no type of the host's resolved.
 * The gate's methods never throw, so the calls need no handler of their own. Constructors and methods
 * without code are never gated. A class whose bytes cannot be read is left as it is, logged once.
 */
final class GateWeaver implements ClassFileTransformer {

    private static final String GATE = Type.getInternalName(StallGate.class);
    private static final String HEADER = Type.getInternalName(ReplicaHeader.class);
    /** The first class file version with stack map frames (Java 6); older ones are verified by inference. */
    private static final int FIRST_VERSION_WITH_FRAMES = Opcodes.V1_6;

    private final Map<String, List<Target>> targetsByInternalName = new LinkedHashMap<>();
    private final MatchRegistry registry;
    private final boolean traceHeader;
    private final Instrumentation instrumentation;
    private final Module gateModule;

    /**
     * @param traceHeader whether entry gates that see the response put the {@code Loadsmith-Replica} header
     *                    on it ({@link Gate#responseArgument()})
     */
    GateWeaver(List<Target> targets, MatchRegistry registry, boolean traceHeader, Instrumentation instrumentation,
               Class<?> gateClass) {
        for (Target target : targets) {
            for (Gate gate : target.gates()) {
                List<Target> list = targetsByInternalName.computeIfAbsent(gate.typeName().replace('.', '/'),
                        k -> new ArrayList<>());
                // by identity, not contains(): a record's equals() bootstraps java.lang.runtime.ObjectMethods,
                // some fifty method-handle classes spun while the host starts; a target's gates come together
                if (list.isEmpty() || list.get(list.size() - 1) != target) {
                    list.add(target);
                }
            }
        }
        this.registry = registry;
        this.traceHeader = traceHeader;
        this.instrumentation = instrumentation;
        this.gateModule = gateClass.getModule();
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] classFile) {
        List<Target> candidates = className == null ? null : targetsByInternalName.get(className);
        if (candidates == null) {
            return null;
        }
        String typeName = className.replace('/', '.');
        List<Gate> gates = new ArrayList<>();
        for (Target target : candidates) {
            if (target.guardAccepts(loader)) {
                registry.matched(target, typeName, loader);
                for (Gate gate : target.gates()) {
                    if (gate.typeName().equals(typeName)) {
                        gates.add(gate);
                    }
                }
            }
        }
        if (gates.isEmpty()) {
            return null;
        }
        try {
            byte[] woven = weave(classFile, gates, traceHeader);
            if (woven == null) {
                return null;
            }
            readGate(module);
            registry.transformed(typeName, loader);
            if (AgentLog.debugEnabled()) {
                AgentLog.debug("gated " + typeName + (redefined != null ? " (retransformed)" : "") + " in " + loader);
            }
            return woven;
        } catch (Throwable t) {
            registry.failed(typeName, t);
            AgentLog.errorOnce("transform:" + typeName, "could not gate " + typeName + ": " + t, t);
            return null;
        }
    }

    /** A named module (the JDK's HTTP server's) must read the gate's module to call it. */
    private void readGate(Module module) {
        if (module != null && module.isNamed() && !module.canRead(gateModule)) {
            instrumentation.redefineModule(module, Set.of(gateModule), Map.of(), Map.of(), Set.of(), Map.of());
        }
    }

    /**
     * {@code classFile} with {@code gates} woven into the methods they match, or null when none matched.
     *
     * @param traceHeader whether entry gates with a response argument also put the replica header on it
     */
    static byte[] weave(byte[] classFile, List<Gate> gates, boolean traceHeader) {
        ClassReader reader = new ClassReader(classFile);
        ClassWriter writer = new ClassWriter(reader, 0);
        GatedClass gated = new GatedClass(writer, gates, traceHeader);
        reader.accept(gated, ClassReader.EXPAND_FRAMES);
        return gated.wovenMethods == 0 ? null : writer.toByteArray();
    }

    /** Wraps the methods that a gate matches. */
    private static final class GatedClass extends ClassVisitor {
        private final List<Gate> gates;
        private final boolean traceHeader;
        private boolean frames;
        private int wovenMethods;

        GatedClass(ClassVisitor next, List<Gate> gates, boolean traceHeader) {
            super(Opcodes.ASM9, next);
            this.gates = gates;
            this.traceHeader = traceHeader;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                          String[] interfaces) {
            frames = (version & 0xFFFF) >= FIRST_VERSION_WITH_FRAMES;
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                         String[] exceptions) {
            MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
            if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0 || name.startsWith("<")) {
                return next;
            }
            boolean onEnter = false;
            boolean onExit = false;
            int responseArgument = Gate.NO_RESPONSE;
            for (Gate gate : gates) {
                if (gate.methods().matches(access, name, descriptor)) {
                    onEnter |= gate.onEnter();
                    onExit |= gate.onExit();
                    if (gate.onEnter() && responseArgument == Gate.NO_RESPONSE) {
                        responseArgument = gate.responseArgument();
                    }
                }
            }
            if (!onEnter && !onExit) {
                return next;
            }
            wovenMethods++;
            int responseSlot = traceHeader && onEnter ? referenceSlot(access, descriptor, responseArgument) : -1;
            return new GatedMethod(next, onEnter, onExit, responseSlot, frames);
        }
    }

    /**
     * The local variable slot of argument {@code index} when it is a reference (an object or an array), else
     * -1 (also for {@link Gate#NO_RESPONSE}).
     */
    static int referenceSlot(int access, String descriptor, int index) {
        Type[] arguments = Type.getArgumentTypes(descriptor);
        if (index < 0 || index >= arguments.length) {
            return -1;
        }
        int sort = arguments[index].getSort();
        if (sort != Type.OBJECT && sort != Type.ARRAY) {
            return -1;
        }
        int slot = (access & Opcodes.ACC_STATIC) != 0 ? 0 : 1;
        for (int i = 0; i < index; i++) {
            slot += arguments[i].getSize();
        }
        return slot;
    }

    /**
     * One gated method. The class reader visits the method's own exception handlers right after
     * {@code visitCode}, before any instruction: the gate goes in before the first instruction or label that
     * follows them, so the catch-all handler of an exit gate comes after the method's own and never catches
     * what they would.
     */
    private static final class GatedMethod extends MethodVisitor {
        private final boolean onEnter;
        private final boolean onExit;
        private final int responseSlot;
        private final boolean frames;
        private final Label bodyStart = new Label();
        private final Label bodyEnd = new Label();
        private final Label onThrow = new Label();
        private boolean started;

        GatedMethod(MethodVisitor next, boolean onEnter, boolean onExit, int responseSlot, boolean frames) {
            super(Opcodes.ASM9, next);
            this.onEnter = onEnter;
            this.onExit = onExit;
            this.responseSlot = responseSlot;
            this.frames = frames;
        }

        private void start() {
            if (started) {
                return;
            }
            started = true;
            if (onEnter && responseSlot >= 0) {
                super.visitVarInsn(Opcodes.ALOAD, responseSlot);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HEADER, "passGlobalAndAdd", "(Ljava/lang/Object;)V", false);
            } else if (onEnter) {
                passGate();
            }
            if (onExit) {
                super.visitTryCatchBlock(bodyStart, bodyEnd, onThrow, null);
                super.visitLabel(bodyStart);
            }
        }

        private void passGate() {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, GATE, "passGlobal", "()V", false);
        }

        @Override
        public void visitInsn(int opcode) {
            start();
            if (onExit && opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
                passGate();
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            start();
            if (onExit) {
                super.visitLabel(bodyEnd);
                super.visitLabel(onThrow);
                if (frames) {
                    super.visitFrame(Opcodes.F_NEW, 0, new Object[0], 1, new Object[] {"java/lang/Throwable"});
                }
                passGate();
                super.visitInsn(Opcodes.ATHROW);
            }
            super.visitMaxs(Math.max(maxStack, 1), maxLocals);
        }

        // every other instruction (and the first label or frame) starts the body after the gate

        @Override
        public void visitLabel(Label label) {
            start();
            super.visitLabel(label);
        }

        @Override
        public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
            start();
            super.visitFrame(type, numLocal, local, numStack, stack);
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            start();
            super.visitIntInsn(opcode, operand);
        }

        @Override
        public void visitVarInsn(int opcode, int varIndex) {
            start();
            super.visitVarInsn(opcode, varIndex);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            start();
            super.visitTypeInsn(opcode, type);
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
            start();
            super.visitFieldInsn(opcode, owner, name, descriptor);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            start();
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String descriptor, net.bytebuddy.jar.asm.Handle bootstrap,
                                           Object... arguments) {
            start();
            super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            start();
            super.visitJumpInsn(opcode, label);
        }

        @Override
        public void visitLdcInsn(Object value) {
            start();
            super.visitLdcInsn(value);
        }

        @Override
        public void visitIincInsn(int varIndex, int increment) {
            start();
            super.visitIincInsn(varIndex, increment);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            start();
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            start();
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        @Override
        public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
            start();
            super.visitMultiANewArrayInsn(descriptor, numDimensions);
        }
    }
}
